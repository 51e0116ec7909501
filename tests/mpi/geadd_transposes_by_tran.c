/* A preloadable shim that sends PBLAS's transposing P?GEADD calls to p?tran, so that a program
 * testing P?GEADD (PBLAS's level-3 tester) tests p?tran on the same arguments:
 *
 *   P?GEADD( TRANS, M, N, ALPHA, A, IA, JA, DESCA, BETA, C, IC, JC, DESCC )
 *     sub(C) := beta * sub(C) + alpha * op(sub(A)),  sub(C) M x N, op(sub(A)) M x N
 *   P?TRAN( M, N, ALPHA, A, IA, JA, DESCA, BETA, C, IC, JC, DESCC )
 *     sub(C) := beta * sub(C) + alpha * sub(A)',     sub(C) M x N, sub(A) N x M
 *
 * so TRANS = 'T' (or 'C' for real data) is p?tran with the remaining arguments as they are; for
 * complex data 'T' is p?tranu and 'C' p?tranc. Every other TRANS ('N', and the illegal values the
 * tester's error exits pass) goes to the next P?GEADD (ScaLAPACK's) unchanged.
 *
 * Preloaded alone, p?tran_ is ScaLAPACK's: the baseline. Preloaded before redist's shared override
 * (LD_PRELOAD="this.so libredist_scalapack_override.so"), or linked into a program with the
 * override linked first, p?tran_ is redist's. The shim counts its calls: with GEADD_TRAN_LOG=<file>
 * each process appends, at exit, one line "geadd-shim rank R pid P: K to p?tran, F forwarded". */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT, RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void geadd_fn(const char*, int*, int*, void*, void*, int*, int*, int*, void*, void*, int*, int*, int*,
                      size_t);
typedef void tran_fn(int*, int*, void*, void*, int*, int*, int*, void*, void*, int*, int*, int*);

static long sent_to_tran;
static long forwarded;

static void report(void) {
  const char* path = getenv("GEADD_TRAN_LOG");
  if (path == NULL || *path == '\0') return;
  FILE* log = fopen(path, "a");
  if (log == NULL) return;
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  fprintf(log, "geadd-shim rank %s pid %ld: %ld to p?tran, %ld forwarded\n", rank ? rank : "?", (long)getpid(),
          sent_to_tran, forwarded);
  fclose(log);
}

/* The definition of `name` that a call from the program would reach (`after` 0: redist's p?tran
 * when its override is linked first or preloaded, else ScaLAPACK's) or the next one after this
 * shim's (`after` 1: ScaLAPACK's P?GEADD), stored at `fn` as a function pointer (copied: ISO C has
 * no cast from dlsym's object pointer). */
static void find(const char* name, int after, void* fn, size_t size) {
  void* f = dlsym(after ? RTLD_NEXT : RTLD_DEFAULT, name);
  if (f == NULL) {
    fprintf(stderr, "geadd-shim: no %s (%s)\n", name, dlerror());
    abort();
  }
  memcpy(fn, &f, size);
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(report);
  }
}

static int is(const char* trans, char c) { return trans[0] == c || trans[0] == c - 'A' + 'a'; }

/* The Fortran hidden length of TRANS is passed on to ScaLAPACK's P?GEADD as received. */
#define GEADD_SHIM(X, TRAN_T, TRAN_C)                                                                      \
  void p##X##geadd_(const char* trans, int* m, int* n, void* alpha, void* a, int* ia, int* ja, int* desca, \
                    void* beta, void* c, int* ic, int* jc, int* descc, size_t trans_len) {                 \
    static geadd_fn* geadd;                                                                                \
    static tran_fn *tran_t, *tran_c;                                                                       \
    if (geadd == NULL) {                                                                                   \
      find(TRAN_T, 0, &tran_t, sizeof tran_t);                                                             \
      find(TRAN_C, 0, &tran_c, sizeof tran_c);                                                             \
      find("p" #X "geadd_", 1, &geadd, sizeof geadd);                                                      \
    }                                                                                                      \
    if (is(trans, 'T') || is(trans, 'C')) {                                                                \
      ++sent_to_tran;                                                                                      \
      (is(trans, 'T') ? tran_t : tran_c)(m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);           \
    } else {                                                                                               \
      ++forwarded;                                                                                         \
      geadd(trans, m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc, trans_len);                      \
    }                                                                                                      \
  }

GEADD_SHIM(s, "pstran_", "pstran_")
GEADD_SHIM(d, "pdtran_", "pdtran_")
GEADD_SHIM(c, "pctranu_", "pctranc_")
GEADD_SHIM(z, "pztranu_", "pztranc_")
