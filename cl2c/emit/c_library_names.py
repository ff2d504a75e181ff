"""Names the C library headers of the runtime declare, which a kernel may also use.

An OpenCL program may call a helper ``index`` or ``read``, or name a kernel ``div`` or a
constant ``y1``: fine in OpenCL C, where no C library is in scope, but a clash in the
emitted C, which includes <math.h>, <stdio.h>, <unistd.h> and the rest (see
``emit/c_names.py``). NAMES lists the ordinary identifiers and macros those headers
declare with glibc, the C library that declares the most; names that start with an
underscore are left out (reserved in C, and in OpenCL C).

Regenerate after changing the runtime's #includes: ``python -m cl2c.emit.c_library_names``
rewrites the list below from this machine's headers (gcc, glibc, libgomp).
"""
from __future__ import annotations

NAMES = frozenset("""
AIO_PRIO_DELTA_MAX ATOMIC_BOOL_LOCK_FREE ATOMIC_CHAR16_T_LOCK_FREE
ATOMIC_CHAR32_T_LOCK_FREE ATOMIC_CHAR_LOCK_FREE ATOMIC_FLAG_INIT ATOMIC_INT_LOCK_FREE
ATOMIC_LLONG_LOCK_FREE ATOMIC_LONG_LOCK_FREE ATOMIC_POINTER_LOCK_FREE
ATOMIC_SHORT_LOCK_FREE ATOMIC_VAR_INIT ATOMIC_WCHAR_T_LOCK_FREE BC_BASE_MAX BC_DIM_MAX
BC_SCALE_MAX BC_STRING_MAX BIG_ENDIAN BUFSIZ BUS_ADRALN BUS_ADRERR BUS_MCEERR_AO
BUS_MCEERR_AR BUS_OBJERR BYTE_ORDER CHARCLASS_NAME_MAX CHAR_BIT CHAR_MAX CHAR_MIN
CLD_CONTINUED CLD_DUMPED CLD_EXITED CLD_KILLED CLD_STOPPED CLD_TRAPPED CLOCKS_PER_SEC
CLOCK_BOOTTIME CLOCK_BOOTTIME_ALARM CLOCK_MONOTONIC CLOCK_MONOTONIC_COARSE
CLOCK_MONOTONIC_RAW CLOCK_PROCESS_CPUTIME_ID CLOCK_REALTIME CLOCK_REALTIME_ALARM
CLOCK_REALTIME_COARSE CLOCK_TAI CLOCK_THREAD_CPUTIME_ID COLL_WEIGHTS_MAX DELAYTIMER_MAX
E2BIG EACCES EADDRINUSE EADDRNOTAVAIL EADV EAFNOSUPPORT EAGAIN EALREADY EBADE EBADF
EBADFD EBADMSG EBADR EBADRQC EBADSLT EBFONT EBUSY ECANCELED ECHILD ECHRNG ECOMM
ECONNABORTED ECONNREFUSED ECONNRESET EDEADLK EDEADLOCK EDESTADDRREQ EDOM EDOTDOT EDQUOT
EEXIST EFAULT EFBIG EHOSTDOWN EHOSTUNREACH EHWPOISON EIDRM EILSEQ EINPROGRESS EINTR
EINVAL EIO EISCONN EISDIR EISNAM EKEYEXPIRED EKEYREJECTED EKEYREVOKED EL2HLT EL2NSYNC
EL3HLT EL3RST ELIBACC ELIBBAD ELIBEXEC ELIBMAX ELIBSCN ELNRNG ELOOP EMEDIUMTYPE EMFILE
EMLINK EMSGSIZE EMULTIHOP ENAMETOOLONG ENAVAIL ENETDOWN ENETRESET ENETUNREACH ENFILE
ENOANO ENOBUFS ENOCSI ENODATA ENODEV ENOENT ENOEXEC ENOKEY ENOLCK ENOLINK ENOMEDIUM
ENOMEM ENOMSG ENONET ENOPKG ENOPROTOOPT ENOSPC ENOSR ENOSTR ENOSYS ENOTBLK ENOTCONN
ENOTDIR ENOTEMPTY ENOTNAM ENOTRECOVERABLE ENOTSOCK ENOTSUP ENOTTY ENOTUNIQ ENXIO EOF
EOPNOTSUPP EOVERFLOW EOWNERDEAD EPERM EPFNOSUPPORT EPIPE EPROTO EPROTONOSUPPORT
EPROTOTYPE ERANGE EREMCHG EREMOTE EREMOTEIO ERESTART ERFKILL EROFS ESHUTDOWN
ESOCKTNOSUPPORT ESPIPE ESRCH ESRMNT ESTALE ESTRPIPE ETIME ETIMEDOUT ETOOMANYREFS
ETXTBSY EUCLEAN EUNATCH EUSERS EWOULDBLOCK EXDEV EXFULL EXIT_FAILURE EXIT_SUCCESS
EXPR_NEST_MAX FD_CLR FD_ISSET FD_SET FD_SETSIZE FD_ZERO FILE FILENAME_MAX FOPEN_MAX
FPE_CONDTRAP FPE_FLTDIV FPE_FLTINV FPE_FLTOVF FPE_FLTRES FPE_FLTSUB FPE_FLTUND
FPE_FLTUNK FPE_INTDIV FPE_INTOVF FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_NAN FP_NORMAL
FP_SUBNORMAL FP_XSTATE_MAGIC1 FP_XSTATE_MAGIC2 FP_XSTATE_MAGIC2_SIZE FP_ZERO F_LOCK
F_OK F_TEST F_TLOCK F_ULOCK HOST_NAME_MAX HUGE_VAL HUGE_VALF HUGE_VALL ILL_BADIADDR
ILL_BADSTK ILL_COPROC ILL_ILLADR ILL_ILLOPC ILL_ILLOPN ILL_ILLTRP ILL_PRVOPC ILL_PRVREG
INFINITY INT16_C INT16_MAX INT16_MIN INT32_C INT32_MAX INT32_MIN INT64_C INT64_MAX
INT64_MIN INT8_C INT8_MAX INT8_MIN INTMAX_C INTMAX_MAX INTMAX_MIN INTPTR_MAX INTPTR_MIN
INT_FAST16_MAX INT_FAST16_MIN INT_FAST32_MAX INT_FAST32_MIN INT_FAST64_MAX
INT_FAST64_MIN INT_FAST8_MAX INT_FAST8_MIN INT_LEAST16_MAX INT_LEAST16_MIN
INT_LEAST32_MAX INT_LEAST32_MIN INT_LEAST64_MAX INT_LEAST64_MIN INT_LEAST8_MAX
INT_LEAST8_MIN INT_MAX INT_MIN LINE_MAX LITTLE_ENDIAN LLONG_MAX LLONG_MIN
LOGIN_NAME_MAX LONG_MAX LONG_MIN L_INCR L_SET L_XTND L_ctermid L_tmpnam MADV_COLD
MADV_DODUMP MADV_DOFORK MADV_DONTDUMP MADV_DONTFORK MADV_DONTNEED MADV_DONTNEED_LOCKED
MADV_FREE MADV_HUGEPAGE MADV_HWPOISON MADV_KEEPONFORK MADV_MERGEABLE MADV_NOHUGEPAGE
MADV_NORMAL MADV_PAGEOUT MADV_POPULATE_READ MADV_POPULATE_WRITE MADV_RANDOM MADV_REMOVE
MADV_SEQUENTIAL MADV_UNMERGEABLE MADV_WILLNEED MADV_WIPEONFORK MAP_32BIT MAP_ANON
MAP_ANONYMOUS MAP_DENYWRITE MAP_EXECUTABLE MAP_FAILED MAP_FILE MAP_FIXED
MAP_FIXED_NOREPLACE MAP_GROWSDOWN MAP_HUGETLB MAP_HUGE_MASK MAP_HUGE_SHIFT MAP_LOCKED
MAP_NONBLOCK MAP_NORESERVE MAP_POPULATE MAP_PRIVATE MAP_SHARED MAP_SHARED_VALIDATE
MAP_STACK MAP_SYNC MAP_TYPE MATH_ERREXCEPT MATH_ERRNO MAX_CANON MAX_INPUT MB_CUR_MAX
MB_LEN_MAX MCL_CURRENT MCL_FUTURE MCL_ONFAULT MINSIGSTKSZ MQ_PRIO_MAX MS_ASYNC
MS_INVALIDATE MS_SYNC M_1_PI M_2_PI M_2_SQRTPI M_E M_LN10 M_LN2 M_LOG10E M_LOG2E M_PI
M_PI_2 M_PI_4 M_SQRT1_2 M_SQRT2 NAME_MAX NAN NFDBITS NGREG NGROUPS_MAX NSIG NULL
PATH_MAX PDP_ENDIAN PIPE_BUF POLL_ERR POLL_HUP POLL_IN POLL_MSG POLL_OUT POLL_PRI
POSIX_MADV_DONTNEED POSIX_MADV_NORMAL POSIX_MADV_RANDOM POSIX_MADV_SEQUENTIAL
POSIX_MADV_WILLNEED PROT_EXEC PROT_GROWSDOWN PROT_GROWSUP PROT_NONE PROT_READ
PROT_WRITE PTHREAD_BARRIER_SERIAL_THREAD PTHREAD_CANCELED PTHREAD_CANCEL_ASYNCHRONOUS
PTHREAD_CANCEL_DEFERRED PTHREAD_CANCEL_DISABLE PTHREAD_CANCEL_ENABLE
PTHREAD_COND_INITIALIZER PTHREAD_CREATE_DETACHED PTHREAD_CREATE_JOINABLE
PTHREAD_DESTRUCTOR_ITERATIONS PTHREAD_EXPLICIT_SCHED PTHREAD_INHERIT_SCHED
PTHREAD_KEYS_MAX PTHREAD_MUTEX_ADAPTIVE_NP PTHREAD_MUTEX_DEFAULT
PTHREAD_MUTEX_ERRORCHECK PTHREAD_MUTEX_ERRORCHECK_NP PTHREAD_MUTEX_INITIALIZER
PTHREAD_MUTEX_NORMAL PTHREAD_MUTEX_RECURSIVE PTHREAD_MUTEX_RECURSIVE_NP
PTHREAD_MUTEX_ROBUST PTHREAD_MUTEX_ROBUST_NP PTHREAD_MUTEX_STALLED
PTHREAD_MUTEX_STALLED_NP PTHREAD_MUTEX_TIMED_NP PTHREAD_ONCE_INIT PTHREAD_PRIO_INHERIT
PTHREAD_PRIO_NONE PTHREAD_PRIO_PROTECT PTHREAD_PROCESS_PRIVATE PTHREAD_PROCESS_SHARED
PTHREAD_RWLOCK_DEFAULT_NP PTHREAD_RWLOCK_INITIALIZER PTHREAD_RWLOCK_PREFER_READER_NP
PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP PTHREAD_RWLOCK_PREFER_WRITER_NP
PTHREAD_SCOPE_PROCESS PTHREAD_SCOPE_SYSTEM PTHREAD_STACK_MIN PTRDIFF_MAX PTRDIFF_MIN
P_tmpdir RAND_MAX RE_DUP_MAX RTSIG_MAX R_OK SA_INTERRUPT SA_NOCLDSTOP SA_NOCLDWAIT
SA_NODEFER SA_NOMASK SA_ONESHOT SA_ONSTACK SA_RESETHAND SA_RESTART SA_SIGINFO SA_STACK
SCHAR_MAX SCHAR_MIN SCHED_FIFO SCHED_OTHER SCHED_RR SEEK_CUR SEEK_END SEEK_SET
SEGV_ACCADI SEGV_ACCERR SEGV_ADIDERR SEGV_ADIPERR SEGV_BNDERR SEGV_MAPERR SEGV_MTEAERR
SEGV_MTESERR SEGV_PKUERR SEM_VALUE_MAX SHRT_MAX SHRT_MIN SIGABRT SIGALRM SIGBUS SIGCHLD
SIGCLD SIGCONT SIGEV_NONE SIGEV_SIGNAL SIGEV_THREAD SIGEV_THREAD_ID SIGFPE SIGHUP
SIGILL SIGINT SIGIO SIGIOT SIGKILL SIGPIPE SIGPOLL SIGPROF SIGPWR SIGQUIT SIGRTMAX
SIGRTMIN SIGSEGV SIGSTKFLT SIGSTKSZ SIGSTOP SIGSYS SIGTERM SIGTRAP SIGTSTP SIGTTIN
SIGTTOU SIGURG SIGUSR1 SIGUSR2 SIGVTALRM SIGWINCH SIGXCPU SIGXFSZ SIG_ATOMIC_MAX
SIG_ATOMIC_MIN SIG_BLOCK SIG_DFL SIG_ERR SIG_IGN SIG_SETMASK SIG_UNBLOCK SIZE_MAX
SI_ASYNCIO SI_ASYNCNL SI_DETHREAD SI_KERNEL SI_MESGQ SI_QUEUE SI_SIGIO SI_TIMER
SI_TKILL SI_USER SSIZE_MAX SS_DISABLE SS_ONSTACK STDERR_FILENO STDIN_FILENO
STDOUT_FILENO TIMER_ABSTIME TIME_UTC TMP_MAX TTY_NAME_MAX UCHAR_MAX UINT16_C UINT16_MAX
UINT32_C UINT32_MAX UINT64_C UINT64_MAX UINT8_C UINT8_MAX UINTMAX_C UINTMAX_MAX
UINTPTR_MAX UINT_FAST16_MAX UINT_FAST32_MAX UINT_FAST64_MAX UINT_FAST8_MAX
UINT_LEAST16_MAX UINT_LEAST32_MAX UINT_LEAST64_MAX UINT_LEAST8_MAX UINT_MAX ULLONG_MAX
ULONG_MAX USHRT_MAX WCHAR_MAX WCHAR_MIN WCONTINUED WEXITED WEXITSTATUS WIFCONTINUED
WIFEXITED WIFSIGNALED WIFSTOPPED WINT_MAX WINT_MIN WNOHANG WNOWAIT WSTOPPED WSTOPSIG
WTERMSIG WUNTRACED W_OK XATTR_LIST_MAX XATTR_NAME_MAX XATTR_SIZE_MAX X_OK a64l abort
abs access acct acos acosf acosh acoshf acoshl acosl alarm aligned_alloc alloca
arc4random arc4random_buf arc4random_uniform asctime asctime_r asin asinf asinh asinhf
asinhl asinl atan atan2 atan2f atan2l atanf atanh atanhf atanhl atanl atof atoi atol
atoll atomic_bool atomic_char atomic_char16_t atomic_char32_t
atomic_compare_exchange_strong atomic_compare_exchange_strong_explicit
atomic_compare_exchange_weak atomic_compare_exchange_weak_explicit atomic_exchange
atomic_exchange_explicit atomic_fetch_add atomic_fetch_add_explicit atomic_fetch_and
atomic_fetch_and_explicit atomic_fetch_or atomic_fetch_or_explicit atomic_fetch_sub
atomic_fetch_sub_explicit atomic_fetch_xor atomic_fetch_xor_explicit atomic_flag
atomic_flag_clear atomic_flag_clear_explicit atomic_flag_test_and_set
atomic_flag_test_and_set_explicit atomic_init atomic_int atomic_int_fast16_t
atomic_int_fast32_t atomic_int_fast64_t atomic_int_fast8_t atomic_int_least16_t
atomic_int_least32_t atomic_int_least64_t atomic_int_least8_t atomic_intmax_t
atomic_intptr_t atomic_is_lock_free atomic_llong atomic_load atomic_load_explicit
atomic_long atomic_ptrdiff_t atomic_schar atomic_short atomic_signal_fence
atomic_size_t atomic_store atomic_store_explicit atomic_thread_fence atomic_uchar
atomic_uint atomic_uint_fast16_t atomic_uint_fast32_t atomic_uint_fast64_t
atomic_uint_fast8_t atomic_uint_least16_t atomic_uint_least32_t atomic_uint_least64_t
atomic_uint_least8_t atomic_uintmax_t atomic_uintptr_t atomic_ullong atomic_ulong
atomic_ushort atomic_wchar_t bcmp bcopy be16toh be32toh be64toh blkcnt_t blksize_t brk
bsearch bzero caddr_t calloc cbrt cbrtf cbrtl ceil ceilf ceill chdir chown chroot
clearenv clearerr clearerr_unlocked clock clock_getcpuclockid clock_getres
clock_gettime clock_nanosleep clock_settime clock_t clockid_t close closefrom confstr
copysign copysignf copysignl cos cosf cosh coshf coshl cosl cpu_set_t ctermid ctime
ctime_r daddr_t daemon daylight dev_t difftime div div_t double_t dprintf drand48
drand48_r drem dremf dreml dup dup2 dysize ecvt ecvt_r endusershell erand48 erand48_r
erf erfc erfcf erfcl erff erfl err errno execl execle execlp execv execve execvp exit
exp exp2 exp2f exp2l expf expl explicit_bzero expm1 expm1f expm1l fabs fabsf fabsl
faccessat fchdir fchown fchownat fclose fcvt fcvt_r fd_mask fd_set fdatasync fdim fdimf
fdiml fdopen feof feof_unlocked ferror ferror_unlocked fexecve fflush fflush_unlocked
ffs ffsl ffsll fgetc fgetc_unlocked fgetpos fgets fileno fileno_unlocked finite finitef
finitel float_t flockfile floor floorf floorl fma fmaf fmal fmax fmaxf fmaxl fmemopen
fmin fminf fminl fmod fmodf fmodl fopen fork fpathconf fpclassify fpos_t fpregset_t
fprintf fputc fputc_unlocked fputs fread fread_unlocked free freopen frexp frexpf
frexpl fsblkcnt_t fscanf fseek fseeko fsetpos fsfilcnt_t fsid_t fsync ftell ftello
ftruncate ftrylockfile ftw funlockfile fwrite fwrite_unlocked gamma gammaf gammal gcvt
getc getc_unlocked getchar getchar_unlocked getcontext getcwd getdelim getdomainname
getdtablesize getegid getentropy getenv geteuid getgid getgroups gethostid gethostname
getline getloadavg getlogin getlogin_r getopt getpagesize getpass getpgid getpgrp
getpid getppid getsid getsubopt getuid getusershell getw getwd gid_t gmtime gmtime_r
greg_t gregset_t gsignal htobe16 htobe32 htobe64 htole16 htole32 htole64 hypot hypotf
hypotl id_t ilogb ilogbf ilogbl index initstate initstate_r ino_t int16_t int32_t
int64_t int8_t int_fast16_t int_fast32_t int_fast64_t int_fast8_t int_least16_t
int_least32_t int_least64_t int_least8_t intmax_t intptr_t isatty isfinite isgreater
isgreaterequal isinf isinff isinfl isless islessequal islessgreater isnan isnanf isnanl
isnormal isunordered j0 j0f j0l j1 j1f j1l jn jnf jnl jrand48 jrand48_r key_t kill
kill_dependency killpg l64a labs lchown lcong48 lcong48_r ldexp ldexpf ldexpl ldiv
ldiv_t le16toh le32toh le64toh lgamma lgamma_r lgammaf lgammaf_r lgammal lgammal_r link
linkat llabs lldiv lldiv_t llrint llrintf llrintl llround llroundf llroundl locale_t
localtime localtime_r lockf loff_t log log10 log10f log10l log1p log1pf log1pl log2
log2f log2l logb logbf logbl logf logl lrand48 lrand48_r lrint lrintf lrintl lround
lroundf lroundl lseek madvise makecontext malloc math_errhandling max_align_t mblen
mbstowcs mbtowc mcontext_t memccpy memchr memcmp memcpy memmove memory_order
memory_order_acq_rel memory_order_acquire memory_order_consume memory_order_relaxed
memory_order_release memory_order_seq_cst memset mincore mkdtemp mkstemp mkstemps
mktemp mktime mlock mlockall mmap mode_t modf modff modfl mprotect mrand48 mrand48_r
msync munlock munlockall munmap nan nanf nanl nanosleep nearbyint nearbyintf nearbyintl
nextafter nextafterf nextafterl nexttoward nexttowardf nexttowardl nice nlink_t nrand48
nrand48_r off_t offsetof omp_aligned_alloc omp_aligned_calloc omp_alloc
omp_allocator_handle_t omp_alloctrait_key_t omp_alloctrait_t omp_alloctrait_value_t
omp_atk_access omp_atk_alignment omp_atk_fallback omp_atk_fb_data omp_atk_partition
omp_atk_pinned omp_atk_pool_size omp_atk_sync_hint omp_atv_abort_fb omp_atv_all
omp_atv_allocator_fb omp_atv_blocked omp_atv_cgroup omp_atv_contended omp_atv_default
omp_atv_default_mem_fb omp_atv_environment omp_atv_false omp_atv_interleaved
omp_atv_nearest omp_atv_null_fb omp_atv_private omp_atv_pteam omp_atv_sequential
omp_atv_serialized omp_atv_thread omp_atv_true omp_atv_uncontended omp_calloc
omp_capture_affinity omp_cgroup_mem_alloc omp_const_mem_alloc omp_const_mem_space
omp_default_mem_alloc omp_default_mem_space omp_destroy_allocator omp_destroy_lock
omp_destroy_nest_lock omp_display_affinity omp_display_env omp_event_handle_t omp_free
omp_fulfill_event omp_get_active_level omp_get_affinity_format
omp_get_ancestor_thread_num omp_get_cancellation omp_get_default_allocator
omp_get_default_device omp_get_device_num omp_get_dynamic omp_get_initial_device
omp_get_level omp_get_max_active_levels omp_get_max_task_priority omp_get_max_teams
omp_get_max_threads omp_get_nested omp_get_num_devices omp_get_num_places
omp_get_num_procs omp_get_num_teams omp_get_num_threads omp_get_partition_num_places
omp_get_partition_place_nums omp_get_place_num omp_get_place_num_procs
omp_get_place_proc_ids omp_get_proc_bind omp_get_schedule
omp_get_supported_active_levels omp_get_team_num omp_get_team_size
omp_get_teams_thread_limit omp_get_thread_limit omp_get_thread_num omp_get_wtick
omp_get_wtime omp_high_bw_mem_alloc omp_high_bw_mem_space omp_in_final omp_in_parallel
omp_init_allocator omp_init_lock omp_init_nest_lock omp_is_initial_device
omp_large_cap_mem_alloc omp_large_cap_mem_space omp_lock_hint_contended
omp_lock_hint_none omp_lock_hint_nonspeculative omp_lock_hint_speculative
omp_lock_hint_t omp_lock_hint_uncontended omp_lock_t omp_low_lat_mem_alloc
omp_low_lat_mem_space omp_memspace_handle_t omp_nest_lock_t omp_null_allocator
omp_pause_hard omp_pause_resource omp_pause_resource_all omp_pause_resource_t
omp_pause_soft omp_proc_bind_close omp_proc_bind_false omp_proc_bind_master
omp_proc_bind_primary omp_proc_bind_spread omp_proc_bind_t omp_proc_bind_true
omp_pteam_mem_alloc omp_realloc omp_sched_auto omp_sched_dynamic omp_sched_guided
omp_sched_monotonic omp_sched_static omp_sched_t omp_set_affinity_format
omp_set_default_allocator omp_set_default_device omp_set_dynamic omp_set_lock
omp_set_max_active_levels omp_set_nest_lock omp_set_nested omp_set_num_teams
omp_set_num_threads omp_set_schedule omp_set_teams_thread_limit omp_sync_hint_contended
omp_sync_hint_none omp_sync_hint_nonspeculative omp_sync_hint_speculative
omp_sync_hint_t omp_sync_hint_uncontended omp_target_alloc omp_target_associate_ptr
omp_target_disassociate_ptr omp_target_free omp_target_is_present omp_target_memcpy
omp_target_memcpy_rect omp_test_lock omp_test_nest_lock omp_thread_mem_alloc
omp_uintptr_t omp_unset_lock omp_unset_nest_lock on_exit open_memstream optarg opterr
optind optopt pathconf pause pclose perror pid_t pipe popen posix_madvise
posix_memalign pow powf powl pread printf profil pselect psiginfo psignal
pthread_atfork pthread_attr_destroy pthread_attr_getdetachstate
pthread_attr_getguardsize pthread_attr_getinheritsched pthread_attr_getschedparam
pthread_attr_getschedpolicy pthread_attr_getscope pthread_attr_getstack
pthread_attr_getstackaddr pthread_attr_getstacksize pthread_attr_init
pthread_attr_setdetachstate pthread_attr_setguardsize pthread_attr_setinheritsched
pthread_attr_setschedparam pthread_attr_setschedpolicy pthread_attr_setscope
pthread_attr_setstack pthread_attr_setstackaddr pthread_attr_setstacksize
pthread_attr_t pthread_barrier_destroy pthread_barrier_init pthread_barrier_t
pthread_barrier_wait pthread_barrierattr_destroy pthread_barrierattr_getpshared
pthread_barrierattr_init pthread_barrierattr_setpshared pthread_barrierattr_t
pthread_cancel pthread_cleanup_pop pthread_cleanup_push pthread_cond_broadcast
pthread_cond_destroy pthread_cond_init pthread_cond_signal pthread_cond_t
pthread_cond_timedwait pthread_cond_wait pthread_condattr_destroy
pthread_condattr_getclock pthread_condattr_getpshared pthread_condattr_init
pthread_condattr_setclock pthread_condattr_setpshared pthread_condattr_t pthread_create
pthread_detach pthread_equal pthread_exit pthread_getcpuclockid pthread_getschedparam
pthread_getspecific pthread_join pthread_key_create pthread_key_delete pthread_key_t
pthread_kill pthread_mutex_consistent pthread_mutex_destroy
pthread_mutex_getprioceiling pthread_mutex_init pthread_mutex_lock
pthread_mutex_setprioceiling pthread_mutex_t pthread_mutex_timedlock
pthread_mutex_trylock pthread_mutex_unlock pthread_mutexattr_destroy
pthread_mutexattr_getprioceiling pthread_mutexattr_getprotocol
pthread_mutexattr_getpshared pthread_mutexattr_getrobust pthread_mutexattr_gettype
pthread_mutexattr_init pthread_mutexattr_setprioceiling pthread_mutexattr_setprotocol
pthread_mutexattr_setpshared pthread_mutexattr_setrobust pthread_mutexattr_settype
pthread_mutexattr_t pthread_once pthread_once_t pthread_rwlock_destroy
pthread_rwlock_init pthread_rwlock_rdlock pthread_rwlock_t pthread_rwlock_timedrdlock
pthread_rwlock_timedwrlock pthread_rwlock_tryrdlock pthread_rwlock_trywrlock
pthread_rwlock_unlock pthread_rwlock_wrlock pthread_rwlockattr_destroy
pthread_rwlockattr_getkind_np pthread_rwlockattr_getpshared pthread_rwlockattr_init
pthread_rwlockattr_setkind_np pthread_rwlockattr_setpshared pthread_rwlockattr_t
pthread_self pthread_setcancelstate pthread_setcanceltype pthread_setschedparam
pthread_setschedprio pthread_setspecific pthread_sigmask pthread_spin_destroy
pthread_spin_init pthread_spin_lock pthread_spin_trylock pthread_spin_unlock
pthread_spinlock_t pthread_t pthread_testcancel ptrdiff_t putc putc_unlocked putchar
putchar_unlocked putenv puts putw pwrite qecvt qecvt_r qfcvt qfcvt_r qgcvt qsort quad_t
quick_exit raise rand rand_r random random_r read readlink readlinkat realloc
reallocarray realpath register_t remainder remainderf remainderl remove remquo remquof
remquol rename renameat revoke rewind rindex rint rintf rintl rmdir round roundf roundl
rpmatch sa_handler sa_sigaction sbrk scalb scalbf scalbl scalbln scalblnf scalblnl
scalbn scalbnf scalbnl scanf sched_get_priority_max sched_get_priority_min
sched_getparam sched_getscheduler sched_priority sched_rr_get_interval sched_setparam
sched_setscheduler sched_yield seed48 seed48_r select setbuf setbuffer setcontext
setdomainname setegid setenv seteuid setgid sethostid sethostname setlinebuf setlogin
setpgid setpgrp setregid setreuid setsid setstate setstate_r setuid setusershell
setvbuf shm_open shm_unlink si_addr si_addr_lsb si_arch si_band si_call_addr si_fd
si_int si_lower si_overrun si_pid si_pkey si_ptr si_status si_stime si_syscall
si_timerid si_uid si_upper si_utime si_value sig_atomic_t sig_t sigaction sigaddset
sigaltstack sigblock sigdelset sigemptyset sigev_notify_attributes
sigev_notify_function sigevent_t sigfillset siggetmask siginfo_t siginterrupt
sigismember sigmask signal signbit signgam significand significandf significandl
sigpending sigprocmask sigqueue sigreturn sigset_t sigsetmask sigstack sigsuspend
sigtimedwait sigval_t sigwait sigwaitinfo sin sinf sinh sinhf sinhl sinl size_t sleep
snprintf socklen_t sprintf sqrt sqrtf sqrtl srand srand48 srand48_r srandom srandom_r
sscanf ssignal ssize_t stack_t stderr stdin stdout stpcpy stpncpy strcasecmp
strcasecmp_l strcat strchr strcmp strcoll strcoll_l strcpy strcspn strdup strerror
strerror_l strerror_r strftime strftime_l strlen strncasecmp strncasecmp_l strncat
strncmp strncpy strndup strnlen strpbrk strrchr strsep strsignal strspn strstr strtod
strtof strtok strtok_r strtol strtold strtoll strtoq strtoul strtoull strtouq strxfrm
strxfrm_l suseconds_t swapcontext symlink symlinkat sync syscall sysconf system tan
tanf tanh tanhf tanhl tanl tcgetpgrp tcsetpgrp tempnam tgamma tgammaf tgammal time
time_t timegm timelocal timer_create timer_delete timer_getoverrun timer_gettime
timer_settime timer_t timespec_get timezone tmpfile tmpnam tmpnam_r trunc truncate
truncf truncl ttyname ttyname_r ttyslot tzname tzset u_char u_int u_int16_t u_int32_t
u_int64_t u_int8_t u_long u_quad_t u_short ualarm ucontext_t uid_t uint uint16_t
uint32_t uint64_t uint8_t uint_fast16_t uint_fast32_t uint_fast64_t uint_fast8_t
uint_least16_t uint_least32_t uint_least64_t uint_least8_t uintmax_t uintptr_t ulong
ungetc unlink unlinkat unsetenv useconds_t ushort usleep va_arg va_copy va_end va_list
va_start valloc vdprintf vfork vfprintf vfscanf vhangup vprintf vscanf vsnprintf
vsprintf vsscanf wchar_t wcstombs wctomb write y0 y0f y0l y1 y1f y1l yn ynf ynl
""".split())


def _generate() -> list[str]:
    import re
    import subprocess
    import tempfile
    from pathlib import Path

    from cl2c.resources import runtime_include_dir

    headers = set()
    for h in (runtime_include_dir() / "cl2c").glob("*.h"):
        headers |= set(re.findall(r"#\s*include\s*<([^>]+)>", h.read_text()))
    headers = sorted(h for h in headers if not h.startswith("cl2c/"))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "h.c")
        src.write_text("#define _DEFAULT_SOURCE 1\n" +
                       "".join(f"#include <{h}>\n" for h in headers))
        cc = ["gcc", "-std=c11", "-fopenmp", str(src)]
        macros = subprocess.run(cc + ["-E", "-dM"], capture_output=True, text=True,
                                check=True).stdout
        text = subprocess.run(cc + ["-E", "-P"], capture_output=True, text=True,
                              check=True).stdout
    names = {line.split()[1].split("(")[0] for line in macros.splitlines()
             if line.startswith("#define ")}
    tokens = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
    # functions and variables: what the libraries export, where the headers name it
    libs = subprocess.run(["gcc", "-print-file-name=libgomp.so"], capture_output=True,
                          text=True).stdout.strip()
    exported = set()
    for lib in ("/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
                libs):
        out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                             text=True).stdout
        exported |= {line.split()[-1].split("@")[0] for line in out.splitlines()
                     if line.strip()}
    names |= exported & tokens
    # typedef names and enum constants: from the preprocessed declarations
    flat = text
    for _ in range(8):           # struct and union bodies out, innermost first
        flat = re.sub(r"(struct|union)(\s+\w+)?\s*\{[^{}]*\}", r"\1\2", flat)
    for stmt in re.findall(r"\btypedef\b[^;]*;", flat):
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)", stmt) or \
            re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*(__attribute__\s*\(\(.*\)\)\s*)?;$", stmt)
        if m:
            names.add(m.group(1))
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", text):
        names |= {m.group(1) for m in re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)", body)}
    return sorted(n for n in names if not n.startswith("_"))


if __name__ == "__main__":
    from pathlib import Path
    path = Path(__file__)
    names = _generate()
    lines, line = [], ""
    for n in names:
        if len(line) + len(n) + 1 > 88:
            lines.append(line.rstrip())
            line = ""
        line += n + " "
    lines.append(line.rstrip())
    text = path.read_text()
    start = text.index('NAMES = frozenset("""\n') + len('NAMES = frozenset("""\n')
    end = text.index('""".split())', start)
    path.write_text(text[:start] + "\n".join(lines) + "\n" + text[end:])
    print(f"{len(names)} names written to {path}")
