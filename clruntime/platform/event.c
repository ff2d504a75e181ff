/* Events: their states, callbacks, waits, user events and profiling times. A state
 * changes under cl2c_lock, and every change is broadcast on cl2c_changed; callbacks
 * are called without the lock, once each, when their state is reached. */
#include "icd.h"

cl_event cl2c_event_new(cl_context context, cl_command_queue queue, cl_command_type type,
                        cl_int status)
{
    cl_event e = cl2c_object_new(CL2C_MAGIC_EVENT, sizeof *e);
    if (!e)
        return NULL;
    e->context = context;
    atomic_fetch_add(&context->obj.refs, 1);
    e->queue = queue;
    if (queue)
        atomic_fetch_add(&queue->obj.refs, 1);
    e->type = type;
    e->status = status;
    e->times[0] = cl2c_now_ns();
    return e;
}

void cl2c_event_release(cl_event e)
{
    if (!cl2c_object_release(&e->obj))
        return;
    for (struct cl2c_event_callback *cb = e->callbacks, *next; cb; cb = next) {
        next = cb->next;            /* never due: the event never got there */
        free(cb);
    }
    if (e->queue)
        cl2c_queue_release(e->queue);
    cl2c_context_release(e->context);
    cl2c_object_free(e);
}

/* The callbacks due at `status`, taken off the event in the order they were set. */
static struct cl2c_event_callback *take_due(cl_event e, cl_int status)
{
    struct cl2c_event_callback *due = NULL, **link = &e->callbacks;
    while (*link) {
        struct cl2c_event_callback *cb = *link;
        if (status <= cb->when) {
            *link = cb->next;
            cb->next = due;         /* the list is newest first: this reverses it */
            due = cb;
        } else {
            link = &cb->next;
        }
    }
    return due;
}

static void call(cl_event e, struct cl2c_event_callback *due, cl_int status)
{
    for (struct cl2c_event_callback *next; due; due = next) {
        next = due->next;
        due->notify(e, status < 0 ? status : due->when, due->user_data);
        free(due);
    }
}

/* Under the lock: the new state, time-stamped; the callbacks now due. */
static struct cl2c_event_callback *set_status_locked(cl_event e, cl_int status)
{
    cl_ulong now = cl2c_now_ns();
    e->status = status;
    if (status == CL_SUBMITTED)
        e->times[1] = now;
    else if (status == CL_RUNNING)
        e->times[2] = now;
    else if (status <= CL_COMPLETE)
        e->times[3] = now;
    pthread_cond_broadcast(&cl2c_changed);
    return take_due(e, status);
}

void cl2c_event_set_status(cl_event e, cl_int status)
{
    pthread_mutex_lock(&cl2c_lock);
    struct cl2c_event_callback *due = set_status_locked(e, status);
    pthread_mutex_unlock(&cl2c_lock);
    call(e, due, status);
}

cl_int cl2c_check_wait_list(cl_context context, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++) {
        if (!cl2c_is(list[i], CL2C_MAGIC_EVENT))
            return CL_INVALID_EVENT_WAIT_LIST;
        if (context && list[i]->context != context)
            return CL_INVALID_CONTEXT;
    }
    return CL_SUCCESS;
}

cl_int cl2c_wait(cl_uint n, const cl_event *list)
{
    bool failed = false;
    pthread_mutex_lock(&cl2c_lock);
    for (cl_uint i = 0; i < n; i++) {
        while (list[i]->status > CL_COMPLETE)
            if (!cl2c_run_here_locked(list[i]))
                pthread_cond_wait(&cl2c_changed, &cl2c_lock);
        failed |= list[i]->status < 0;
    }
    pthread_mutex_unlock(&cl2c_lock);
    return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int CL2C_API(clWaitForEvents)(cl_uint num_events, const cl_event *event_list)
{
    if (num_events == 0 || event_list == NULL)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; i++) {
        if (!cl2c_is(event_list[i], CL2C_MAGIC_EVENT))
            return CL_INVALID_EVENT;
        if (event_list[i]->context != event_list[0]->context)
            return CL_INVALID_CONTEXT;
    }
    return cl2c_wait(num_events, event_list);
}

cl_int CL2C_API(clRetainEvent)(cl_event event)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    atomic_fetch_add(&event->obj.refs, 1);
    return CL_SUCCESS;
}

cl_int CL2C_API(clReleaseEvent)(cl_event event)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    cl2c_event_release(event);
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetEventInfo)(cl_event event, cl_event_info param_name,
                                size_t param_value_size, void *param_value,
                                size_t *param_value_size_ret)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: CL2C_ANSWER(cl_command_queue, event->queue);
    case CL_EVENT_CONTEXT: CL2C_ANSWER(cl_context, event->context);
    case CL_EVENT_COMMAND_TYPE: CL2C_ANSWER(cl_command_type, event->type);
    case CL_EVENT_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&event->obj.refs));
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
        pthread_mutex_lock(&cl2c_lock);
        cl_int status = event->status;
        pthread_mutex_unlock(&cl2c_lock);
        CL2C_ANSWER(cl_int, status);
    }
    }
    return CL_INVALID_VALUE;
}

cl_int CL2C_API(clGetEventProfilingInfo)(cl_event event, cl_profiling_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    if (!event->queue || !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    pthread_mutex_lock(&cl2c_lock);
    cl_int status = event->status;
    pthread_mutex_unlock(&cl2c_lock);
    if (status != CL_COMPLETE)
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: CL2C_ANSWER(cl_ulong, event->times[0]);
    case CL_PROFILING_COMMAND_SUBMIT: CL2C_ANSWER(cl_ulong, event->times[1]);
    case CL_PROFILING_COMMAND_START: CL2C_ANSWER(cl_ulong, event->times[2]);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: CL2C_ANSWER(cl_ulong, event->times[3]);
    }
    return CL_INVALID_VALUE;
}

cl_event CL2C_API(clCreateUserEvent)(cl_context context, cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    cl_event e = cl2c_event_new(context, NULL, CL_COMMAND_USER, CL_SUBMITTED);
    if (!e)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return e;
}

cl_int CL2C_API(clSetUserEventStatus)(cl_event event, cl_int execution_status)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT) || event->type != CL_COMMAND_USER)
        return CL_INVALID_EVENT;
    if (execution_status > CL_COMPLETE)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&cl2c_lock);
    if (event->status <= CL_COMPLETE) {          /* set once only */
        pthread_mutex_unlock(&cl2c_lock);
        return CL_INVALID_OPERATION;
    }
    struct cl2c_event_callback *due = set_status_locked(event, execution_status);
    pthread_mutex_unlock(&cl2c_lock);
    call(event, due, execution_status);
    return CL_SUCCESS;
}

cl_int CL2C_API(clSetEventCallback)(cl_event event, cl_int command_exec_callback_type,
                                    cl2c_event_notify pfn_notify, void *user_data)
{
    if (!cl2c_is(event, CL2C_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
                        command_exec_callback_type != CL_RUNNING &&
                        command_exec_callback_type != CL_COMPLETE))
        return CL_INVALID_VALUE;
    struct cl2c_event_callback *cb = malloc(sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->when = command_exec_callback_type;
    cb->notify = pfn_notify;
    cb->user_data = user_data;
    pthread_mutex_lock(&cl2c_lock);
    cl_int status = event->status;
    bool due = status <= cb->when;
    if (!due) {
        cb->next = event->callbacks;
        event->callbacks = cb;
    }
    pthread_mutex_unlock(&cl2c_lock);
    if (due) {                       /* already there: called now, on this thread */
        cb->next = NULL;
        call(event, cb, status);
    }
    return CL_SUCCESS;
}
