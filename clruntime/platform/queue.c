/* Command queues. Each has a worker thread that runs its commands in the order they
 * were enqueued (an out-of-order queue too: in order is one of the orders it allows),
 * each once its wait list is complete; so an enqueue returns at once, and a command
 * waiting on a user event holds up its queue's worker, never the host.
 *
 * Lifetimes: a command holds its event, the events it waits for and the memory
 * objects it uses; an event holds its queue; a queue holds its context. A released
 * queue's worker frees it once its last command has run. */
#include "icd.h"

static void *worker(void *arg);
static bool run_head_here_locked(cl_command_queue q, cl_event only);

/* A queue of this process (not one inherited through fork(): its worker is not here). */
static bool live_queue(cl_command_queue q)
{
    return cl2c_is(q, CL2C_MAGIC_QUEUE) && q->generation == cl2c_generation;
}

static const cl_command_queue_properties known_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

static cl_command_queue new_queue(cl_context context, cl_device_id device,
                                  cl_command_queue_properties properties,
                                  cl_int *errcode_ret)
{
    if (!cl2c_is(context, CL2C_MAGIC_CONTEXT))
        return cl2c_fail(errcode_ret, CL_INVALID_CONTEXT);
    if (device != &cl2c_the_device)
        return cl2c_fail(errcode_ret, CL_INVALID_DEVICE);
    if (properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
        return cl2c_fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
    if (properties & ~known_properties)
        return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    cl_command_queue q = cl2c_object_new(CL2C_MAGIC_QUEUE, sizeof *q);
    if (!q)
        return cl2c_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    q->context = context;
    q->properties = properties;
    q->generation = cl2c_generation;
    atomic_fetch_add(&context->obj.refs, 1);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int failed = pthread_create(&q->worker, &attr, worker, q);
    pthread_attr_destroy(&attr);
    if (failed) {
        cl2c_context_release(context);
        cl2c_object_free(q);
        return cl2c_fail(errcode_ret, CL_OUT_OF_RESOURCES);
    }
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return q;
}

cl_command_queue CL2C_API(clCreateCommandQueue)(cl_context context, cl_device_id device,
                                                cl_command_queue_properties properties,
                                                cl_int *errcode_ret)
{
    return new_queue(context, device, properties, errcode_ret);
}

cl_command_queue CL2C_API(clCreateCommandQueueWithProperties)(
    cl_context context, cl_device_id device, const cl_queue_properties *properties,
    cl_int *errcode_ret)
{
    cl_command_queue_properties bits = 0;
    cl_uint n = 0;
    for (; properties && properties[n] != 0; n += 2) {
        if (n + 3 > sizeof ((struct _cl_command_queue *)0)->property_list /
                    sizeof(cl_queue_properties))
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
        if (properties[n] == CL_QUEUE_PROPERTIES)
            bits = properties[n + 1];
        else if (properties[n] == CL_QUEUE_SIZE)
            return cl2c_fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);   /* on-device */
        else
            return cl2c_fail(errcode_ret, CL_INVALID_VALUE);
    }
    cl_command_queue q = new_queue(context, device, bits, errcode_ret);
    if (q && properties) {
        memcpy(q->property_list, properties, (n + 1) * sizeof properties[0]);
        q->num_property_list = n + 1;
    }
    return q;
}

cl_int CL2C_API(clRetainCommandQueue)(cl_command_queue command_queue)
{
    if (!cl2c_is(command_queue, CL2C_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    atomic_fetch_add(&command_queue->obj.refs, 1);
    return CL_SUCCESS;
}

void cl2c_queue_release(cl_command_queue q)
{
    if (!cl2c_object_release(&q->obj))
        return;
    pthread_mutex_lock(&cl2c_lock);
    q->stopping = true;               /* the worker frees it when it has run the rest */
    pthread_cond_broadcast(&cl2c_changed);
    pthread_mutex_unlock(&cl2c_lock);
}

cl_int CL2C_API(clReleaseCommandQueue)(cl_command_queue command_queue)
{
    if (!cl2c_is(command_queue, CL2C_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    cl2c_queue_release(command_queue);
    return CL_SUCCESS;
}

cl_int CL2C_API(clGetCommandQueueInfo)(cl_command_queue command_queue,
                                       cl_command_queue_info param_name,
                                       size_t param_value_size, void *param_value,
                                       size_t *param_value_size_ret)
{
    cl_command_queue q = command_queue;
    if (!cl2c_is(q, CL2C_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    switch (param_name) {
    case CL_QUEUE_CONTEXT: CL2C_ANSWER(cl_context, q->context);
    case CL_QUEUE_DEVICE: CL2C_ANSWER(cl_device_id, &cl2c_the_device);
    case CL_QUEUE_REFERENCE_COUNT: CL2C_ANSWER(cl_uint, atomic_load(&q->obj.refs));
    case CL_QUEUE_PROPERTIES: CL2C_ANSWER(cl_command_queue_properties, q->properties);
    }
    if (cl2c_api_version() == 30) {
        switch (param_name) {
        case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;     /* a host queue */
        case CL_QUEUE_DEVICE_DEFAULT: CL2C_ANSWER(cl_command_queue, NULL);
        case CL_QUEUE_PROPERTIES_ARRAY:
            CL2C_ANSWER_ARRAY(q->property_list,
                              q->num_property_list * sizeof q->property_list[0]);
        }
    }
    return CL_INVALID_VALUE;
}

cl_int CL2C_API(clFlush)(cl_command_queue command_queue)
{
    /* every enqueue is submitted to the worker at once */
    return cl2c_is(command_queue, CL2C_MAGIC_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL2C_API(clFinish)(cl_command_queue command_queue)
{
    if (!live_queue(command_queue))
        return CL_INVALID_COMMAND_QUEUE;
    pthread_mutex_lock(&cl2c_lock);
    while (command_queue->pending)    /* the host runs what is ready rather than wait */
        if (!run_head_here_locked(command_queue, NULL))
            pthread_cond_wait(&cl2c_changed, &cl2c_lock);
    pthread_mutex_unlock(&cl2c_lock);
    return CL_SUCCESS;
}

/* ---- commands ---- */

cl_int cl2c_check_enqueue(cl_command_queue q, cl_uint n, const cl_event *waits)
{
    if (!live_queue(q))
        return CL_INVALID_COMMAND_QUEUE;
    return cl2c_check_wait_list(q->context, n, waits);
}

struct cl2c_command *cl2c_command_new(cl_command_queue q, cl_command_type type,
                                      cl_uint num_waits, const cl_event *waits)
{
    struct cl2c_command *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->event = cl2c_event_new(q->context, q, type, CL_QUEUED);
    c->waits = num_waits ? malloc(num_waits * sizeof *waits) : NULL;
    if (!c->event || (num_waits && !c->waits)) {
        if (c->event)
            cl2c_event_release(c->event);
        free(c->waits);
        free(c);
        return NULL;
    }
    for (cl_uint i = 0; i < num_waits; i++) {
        c->waits[i] = waits[i];
        atomic_fetch_add(&waits[i]->obj.refs, 1);
    }
    c->num_waits = num_waits;
    return c;
}

void cl2c_command_use(struct cl2c_command *c, int slot, cl_mem m)
{
    atomic_fetch_add(&m->obj.refs, 1);
    c->mem[slot] = m;
}

void cl2c_command_free(struct cl2c_command *c)
{
    for (cl_uint i = 0; i < c->num_waits; i++)
        cl2c_event_release(c->waits[i]);
    free(c->waits);
    for (int i = 0; i < 2; i++)
        if (c->mem[i])
            cl2c_mem_release(c->mem[i]);
    if (c->free_work)
        c->free_work(c->work);
    cl2c_event_release(c->event);
    free(c);
}

/* Whether `c` may run: every event it waits for complete (or failed: `failed`). */
static bool ready(const struct cl2c_command *c, bool *failed)
{
    for (cl_uint i = 0; i < c->num_waits; i++) {
        if (c->waits[i]->status > CL_COMPLETE)
            return false;
        *failed |= c->waits[i]->status < 0;
    }
    return true;
}

/* Run a command on the calling thread: its event goes through every state, and the
 * command is freed (what the worker does with the commands it takes). */
static void run_command(struct cl2c_command *c, bool failed)
{
    if (failed) {
        cl2c_event_set_status(c->event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
        cl2c_event_set_status(c->event, CL_RUNNING);
        if (c->run)
            c->run(c);
        cl2c_event_set_status(c->event, c->status < 0 ? c->status : CL_COMPLETE);
    }
    cl2c_command_free(c);
}

/* With the lock held: run `q`'s next command on this thread where it is ready and
 * nothing of `q` runs (and it is `only`'s, where that is not NULL); whether it did. */
static bool run_head_here_locked(cl_command_queue q, cl_event only)
{
    struct cl2c_command *c = q->head;
    bool failed = false;
    if (!c || (only && c->event != only) || q->running_here || q->worker_busy ||
        !ready(c, &failed))
        return false;
    q->head = c->next;
    if (!q->head)
        q->tail = NULL;
    q->running_here = true;
    pthread_mutex_unlock(&cl2c_lock);
    run_command(c, failed);           /* the caller holds `q` (or an event that does) */
    pthread_mutex_lock(&cl2c_lock);
    q->running_here = false;
    q->pending--;
    pthread_cond_broadcast(&cl2c_changed);
    return true;
}

bool cl2c_run_here_locked(cl_event e)
{
    return e->queue && run_head_here_locked(e->queue, e);
}

cl_int cl2c_enqueue(struct cl2c_command *c, cl_event *event, bool blocking)
{
    cl_command_queue q = c->event->queue;
    cl_event e = c->event;
    if (event || blocking)
        atomic_fetch_add(&e->obj.refs, 1);
    if (event && blocking)
        atomic_fetch_add(&e->obj.refs, 1);
    pthread_mutex_lock(&cl2c_lock);
    e->status = CL_SUBMITTED;         /* no callback can be set on it yet */
    e->times[1] = cl2c_now_ns();
    bool failed = false;
    if (blocking && q->pending == 0 && ready(c, &failed)) {
        /* a blocking command on an idle queue runs here: the host waits for it
         * anyway, and the worker's wake-up would be most of its time */
        q->pending++;
        q->running_here = true;
        pthread_mutex_unlock(&cl2c_lock);
        run_command(c, failed);
        pthread_mutex_lock(&cl2c_lock);
        q->running_here = false;
        q->pending--;
        pthread_cond_broadcast(&cl2c_changed);
        pthread_mutex_unlock(&cl2c_lock);
    } else {
        if (q->tail)
            q->tail->next = c;
        else
            q->head = c;
        q->tail = c;
        q->pending++;
        pthread_cond_broadcast(&cl2c_changed);
        pthread_mutex_unlock(&cl2c_lock);
    }
    if (event)
        *event = e;
    if (!blocking)
        return CL_SUCCESS;
    cl_int err = cl2c_wait(1, &e);
    cl2c_event_release(e);
    return err;
}

static void *worker(void *arg)
{
    cl_command_queue q = arg;
    pthread_mutex_lock(&cl2c_lock);
    for (;;) {
        /* the next command once it is ready and no host thread runs one of this
         * queue's (cl2c_enqueue, cl2c_run_here_locked: they may take it first) */
        struct cl2c_command *c;
        bool failed;
        for (;;) {
            c = q->head;
            failed = false;
            if (c && !q->running_here && ready(c, &failed))
                break;
            if (!c && !q->running_here && q->stopping)
                goto released;        /* and nothing left to run */
            pthread_cond_wait(&cl2c_changed, &cl2c_lock);
        }
        q->head = c->next;
        if (!q->head)
            q->tail = NULL;
        q->worker_busy = true;
        pthread_mutex_unlock(&cl2c_lock);
        run_command(c, failed);
        pthread_mutex_lock(&cl2c_lock);
        q->worker_busy = false;
        q->pending--;
        pthread_cond_broadcast(&cl2c_changed);
    }
released:
    pthread_mutex_unlock(&cl2c_lock);
    cl2c_context_release(q->context);
    cl2c_object_free(q);
    return NULL;
}
