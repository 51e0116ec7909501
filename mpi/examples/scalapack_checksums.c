/* scalapack_checksums.c — an ordinary ScaLAPACK user program (no redist headers) that moves
 * submatrices with pdgemr2d_, pdtrmr2d_, pdtran_, pztranu_ and pztranc_ and prints one checksum
 * line per call from rank 0. Link it once against ScaLAPACK and once with redist's drop-in
 * overrides first: both runs must print the same lines.
 *   mpicc -O2 scalapack_checksums.c -o scalapack_checksums -lscalapack-openmpi
 *   mpirun -np 4 ./scalapack_checksums
 * It covers grids of row order and from Cblacs_gridmap (permuted, and one leaving rank 0 out, so
 * rank 0 passes NULL and a descriptor with CTXT = -1), submatrices at offsets, leading dimensions
 * above the local rows (the padding holds a sentinel that must survive: checksums include it),
 * RSRC/CSRC != 0, a 1x4 union context and a 2x2 one. All values are small integers or dyadic, so
 * every sum is exact and the output is deterministic. */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int* me, int* np);
void Cblacs_get(int ctxt, int what, int* val);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* ctxt, int* map, int ldmap, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
int numroc_(int* n, int* nb, int* iproc, int* isrc, int* nprocs);
void descinit_(int* desc, int* m, int* n, int* mb, int* nb, int* rsrc, int* csrc, int* ctxt, int* lld, int* info);
void pdgemr2d_(int* m, int* n, double* a, int* ia, int* ja, int* desca, double* b, int* ib, int* jb, int* descb, int* ictxt);
void pdtrmr2d_(const char* uplo, const char* diag, int* m, int* n, double* a, int* ia, int* ja, int* desca, double* b,
               int* ib, int* jb, int* descb, int* ictxt);
void pdtran_(int* m, int* n, double* alpha, double* a, int* ia, int* ja, int* desca, double* beta, double* c, int* ic,
             int* jc, int* descc);
typedef void ztran_fn(int* m, int* n, double complex* alpha, double complex* a, int* ia, int* ja, int* desca,
                      double complex* beta, double complex* c, int* ic, int* jc, int* descc);
ztran_fn pztranu_, pztranc_;

static int me;

/* A local piece of a distributed matrix; complex ones store (re, im) pairs. */
typedef struct { int desc[9], rows, cols, lld, cplx; double* v; } Mat;

static int global_of(int l, int nb, int p, int src, int np) { return ((l / nb) * np + (p - src + np) % np) * nb + l % nb; }

/* Local storage with `pad` extra rows of sentinel -5; entries f(gi, gj) (0-based global). */
static Mat make(int ctxt, int m, int n, int mb, int nb, int rsrc, int csrc, int pad, int cplx, int seed) {
  Mat a = {{0, -1, 0, 0, 1, 1, 0, 0, 1}, 0, 0, 0, cplx, NULL};  /* outside the grid: CTXT = -1 */
  int npr, npc, pr, pc, info;
  Cblacs_gridinfo(ctxt, &npr, &npc, &pr, &pc);
  if (npr < 1) return a;
  a.rows = numroc_(&m, &mb, &pr, &rsrc, &npr);
  a.cols = numroc_(&n, &nb, &pc, &csrc, &npc);
  a.lld = a.rows + pad;
  descinit_(a.desc, &m, &n, &mb, &nb, &rsrc, &csrc, &ctxt, &a.lld, &info);
  a.v = malloc(sizeof(double) * (cplx ? 2 : 1) * a.lld * (a.cols ? a.cols : 1));
  for (int j = 0; j < a.cols; j++)
    for (int i = 0; i < a.lld; i++) {
      int gi = global_of(i, mb, pr, rsrc, npr), gj = global_of(j, nb, pc, csrc, npc), k = i + j * a.lld;
      double re = i < a.rows ? seed * (100 * gi + gj + 1) % 2003 - 1000 : -5;
      if (!cplx) a.v[k] = re;
      else a.v[2 * k] = re, a.v[2 * k + 1] = i < a.rows ? (gj - 3 * gi) * seed % 97 : -5;
    }
  return a;
}

/* Sum of all local doubles (padding included) times position weights, over the ranks in order. */
static void report(const char* what, const Mat* a) {
  double s = 0, all[64];
  int np, count = a->lld * a->cols * (a->cplx ? 2 : 1);
  for (int k = 0; k < count; k++) s += a->v[k] * (1 + (7 * k + 3 * me) % 11);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (me != 0) return;
  double total = 0;
  for (int r = 0; r < np; r++) total += all[r];
  printf("%-58s checksum %.17g\n", what, total);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int np, row, map, sub, all;
  Cblacs_pinfo(&me, &np);
  if (np != 4) {
    if (me == 0) fprintf(stderr, "scalapack_checksums: run with 4 processes\n");
    MPI_Finalize();
    return 1;
  }
  Cblacs_get(-1, 0, &row);
  Cblacs_gridinit(&row, "Row", 2, 2);        /* 2x2, row order */
  Cblacs_get(-1, 0, &map);
  int map_ranks[4] = {2, 0, 3, 1};
  Cblacs_gridmap(&map, map_ranks, 1, 1, 4);  /* 1x4, permuted */
  Cblacs_get(-1, 0, &sub);
  int sub_ranks[3] = {3, 1, 2};
  Cblacs_gridmap(&sub, sub_ranks, 3, 3, 1);  /* 3x1 without rank 0 */
  Cblacs_get(-1, 0, &all);
  Cblacs_gridinit(&all, "Row", 1, 4);        /* the union */

  Mat a = make(row, 13, 11, 3, 2, 1, 0, 2, 0, 1);
  Mat b = make(map, 12, 14, 2, 3, 0, 2, 1, 0, 3);
  Mat c = make(sub, 10, 9, 4, 2, 2, 0, 3, 0, 5);
  Mat d = make(row, 9, 12, 2, 5, 0, 1, 1, 0, 7);
  int m, n, i1 = 1, i2 = 2, i3 = 3, i4 = 4, i5 = 5;

  m = 9, n = 7;
  pdgemr2d_(&m, &n, a.v, &i2, &i3, a.desc, b.v, &i3, &i5, b.desc, &all);
  report("pdgemr2d A(2x2 row)->B(1x4 map), 9x7", &b);
  m = 8, n = 6;  /* ictxt is the 2x2 grid here */
  pdgemr2d_(&m, &n, b.v, &i2, &i4, b.desc, c.v, &i3, &i2, c.desc, &row);
  report("pdgemr2d B(1x4 map)->C(3x1 map, no rank 0), 8x6", &c);
  m = 9, n = 5;
  pdtrmr2d_("U", "N", &m, &n, a.v, &i1, &i2, a.desc, b.v, &i2, &i1, b.desc, &all);
  report("pdtrmr2d U N A->B, 9x5 (tall)", &b);
  m = 5, n = 8;
  pdtrmr2d_("L", "U", &m, &n, a.v, &i4, &i1, a.desc, c.v, &i4, &i2, c.desc, &all);
  report("pdtrmr2d L U A->C, 5x8 (wide)", &c);
  m = 4, n = 9;
  pdtrmr2d_("L", "N", &m, &n, c.v, &i2, &i1, c.desc, b.v, &i5, &i3, b.desc, &all);
  report("pdtrmr2d L N C->B, 4x9 (wide)", &b);

  double alpha = 0.5, beta = 2, zero = 0, one = 1;
  m = 7, n = 10;
  pdtran_(&m, &n, &alpha, a.v, &i3, &i2, a.desc, &beta, d.v, &i2, &i3, d.desc);
  report("pdtran D(2:8,3:12) = 2 D + 0.5 A(3:12,2:8)^T", &d);
  m = 9, n = 4;
  pdtran_(&m, &n, &one, a.v, &i1, &i3, a.desc, &zero, d.v, &i1, &i1, d.desc);
  report("pdtran D(1:9,1:4) = A(1:4,3:11)^T", &d);

  Mat e = make(map, 8, 6, 2, 2, 0, 1, 2, 1, 3), f = make(map, 6, 8, 3, 1, 0, 3, 1, 1, 11);
  double complex za = 0.5 - 1.0 * I, zb = 2.0 + 0.25 * I;
  ztran_fn* fn[2] = {pztranu_, pztranc_};
  const char* name[2] = {"pztranu F(2:6,3:7) = zb F + za E(2:6,1:5)^T", "pztranc F(2:6,3:7) = zb F + za E(2:6,1:5)^H"};
  for (int k = 0; k < 2; k++) {
    m = 5, n = 5;
    fn[k](&m, &n, &za, (double complex*)e.v, &i2, &i1, e.desc, &zb, (double complex*)f.v, &i2, &i3, f.desc);
    report(name[k], &f);
  }

  free(a.v), free(b.v), free(c.v), free(d.v), free(e.v), free(f.v);
  Cblacs_gridexit(row), Cblacs_gridexit(map), Cblacs_gridexit(all);
  if (sub != -1) Cblacs_gridexit(sub);  /* -1 where the process is not in the grid */
  MPI_Finalize();
  return 0;
}
