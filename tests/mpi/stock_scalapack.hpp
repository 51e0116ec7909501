// Stock ScaLAPACK beside redist in the drop-in's tests: its C forms of p?gemr2d and p?trmr2d by element
// type, and numroc's rule for a process's local extent (the references the tests compare with).
#pragma once

#include <complex>

extern "C" {
void Cpsgemr2d(int, int, float*, int, int, int*, float*, int, int, int*, int);
void Cpdgemr2d(int, int, double*, int, int, int*, double*, int, int, int*, int);
void Cpcgemr2d(int, int, std::complex<float>*, int, int, int*, std::complex<float>*, int, int, int*, int);
void Cpzgemr2d(int, int, std::complex<double>*, int, int, int*, std::complex<double>*, int, int, int*, int);
void Cpigemr2d(int, int, int*, int, int, int*, int*, int, int, int*, int);
void Cpstrmr2d(const char*, const char*, int, int, float*, int, int, int*, float*, int, int, int*, int);
void Cpdtrmr2d(const char*, const char*, int, int, double*, int, int, int*, double*, int, int, int*, int);
void Cpctrmr2d(const char*, const char*, int, int, std::complex<float>*, int, int, int*, std::complex<float>*, int, int,
               int*, int);
void Cpztrmr2d(const char*, const char*, int, int, std::complex<double>*, int, int, int*, std::complex<double>*, int,
               int, int*, int);
void Cpitrmr2d(const char*, const char*, int, int, int*, int, int, int*, int*, int, int, int*, int);
}

namespace redist::test {

/// ScaLAPACK's own p?gemr2d and p?trmr2d (C forms), by element type.
template <class T>
struct Stock;
#define REDIST_STOCK(T, X)                                                                                            \
  template <>                                                                                                         \
  struct Stock<T> {                                                                                                   \
    static void gemr2d(int m, int n, T* a, int ia, int ja, int* da, T* b, int ib, int jb, int* db, int ctxt) {        \
      Cp##X##gemr2d(m, n, a, ia, ja, da, b, ib, jb, db, ctxt);                                                        \
    }                                                                                                                 \
    static void trmr2d(const char* u, const char* d, int m, int n, T* a, int ia, int ja, int* da, T* b, int ib,       \
                       int jb, int* db, int ctxt) {                                                                   \
      Cp##X##trmr2d(u, d, m, n, a, ia, ja, da, b, ib, jb, db, ctxt);                                                  \
    }                                                                                                                 \
  };
REDIST_STOCK(float, s)
REDIST_STOCK(double, d)
REDIST_STOCK(std::complex<float>, c)
REDIST_STOCK(std::complex<double>, z)
REDIST_STOCK(int, i)
#undef REDIST_STOCK

/// Rows (or columns) of an n-long dimension in blocks of nb that process iproc of nprocs holds, the
/// first block on isrc (ScaLAPACK's NUMROC).
inline int numroc(int n, int nb, int iproc, int isrc, int nprocs) {
  const int dist = (nprocs + iproc - isrc) % nprocs;
  const int blocks = n / nb;
  int local = (blocks / nprocs) * nb;
  const int extra = blocks % nprocs;
  if (dist < extra) local += nb;
  else if (dist == extra) local += n % nb;
  return local;
}

}  // namespace redist::test
