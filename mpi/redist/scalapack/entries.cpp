// The C++ entries of scalapack.hpp: each names its arguments as ScaLAPACK numbers them and hands
// the copy to copy_submatrix (submatrix_call.hpp); p?tran then combines what arrived with C.
#include <complex>
#include <string>
#include <type_traits>

#include "redist/scalapack/scalapack.hpp"
#include "redist/scalapack/submatrix_call.hpp"

namespace redist::scalapack {
namespace {

template <class T>
char type_letter() {
  if constexpr (std::is_same_v<T, float>) return 's';
  if constexpr (std::is_same_v<T, double>) return 'd';
  if constexpr (std::is_same_v<T, std::complex<float>>) return 'c';
  if constexpr (std::is_same_v<T, std::complex<double>>) return 'z';
  if constexpr (std::is_same_v<T, int>) return 'i';
}

template <class T>
std::string routine(const char* name) {
  return std::string("p") + type_letter<T>() + name;
}

std::string argument(int number, const char* name) {
  return "argument " + std::to_string(number) + " (" + name + ")";
}

// p?gemr2d's arguments from position `first` on (p?trmr2d puts UPLO and DIAG before them).
ArgumentNames copy_names(int first) {
  const auto arg = [&](int k, const char* name) { return argument(first + k, name); };
  return {arg(0, "M"), arg(1, "N"), arg(3, "IA"), arg(4, "JA"), arg(5, "DESCA"), arg(7, "IB"), arg(8, "JB"),
          arg(9, "DESCB"), arg(10, "ICTXT"), argument(1, "UPLO"), argument(2, "DIAG")};
}

template <class T>
SubmatrixCall copy_call(std::string name, ArgumentNames names, int m, int n, int ia, int ja, const int* desca, int ib,
                        int jb, const int* descb, int ictxt) {
  SubmatrixCall call;
  call.routine = std::move(name);
  call.names = std::move(names);
  call.rows = m;
  call.cols = n;
  call.ia = ia;
  call.ja = ja;
  call.desca = desca;
  call.ib = ib;
  call.jb = jb;
  call.descb = descb;
  call.context = ictxt;
  call.elem_bytes = static_cast<Index>(sizeof(T));
  return call;
}

template <class T>
const std::byte* bytes(const T* p) {
  return reinterpret_cast<const std::byte*>(p);
}

}  // namespace

template <class T>
void gemr2d(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb, const int* descb, int ictxt) {
  const SubmatrixCall call = copy_call<T>(routine<T>("gemr2d"), copy_names(1), m, n, ia, ja, desca, ib, jb, descb, ictxt);
  copy_submatrix(call, bytes(a), reinterpret_cast<std::byte*>(b));
}

template <class T>
void trmr2d(char uplo, char diag, int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,
            const int* descb, int ictxt) {
  SubmatrixCall call = copy_call<T>(routine<T>("trmr2d"), copy_names(3), m, n, ia, ja, desca, ib, jb, descb, ictxt);
  call.uplo = uplo == 0 ? ' ' : uplo;  // 0 would mean "no trapezoid"
  call.diag = diag == 0 ? ' ' : diag;
  copy_submatrix(call, bytes(a), reinterpret_cast<std::byte*>(b));
}

#define REDIST_SCALAPACK_COPIES(T)                                                                                   \
  template void gemr2d<T>(int, int, const T*, int, int, const int*, T*, int, int, const int*, int);                \
  template void trmr2d<T>(char, char, int, int, const T*, int, int, const int*, T*, int, int, const int*, int);
REDIST_SCALAPACK_COPIES(float)
REDIST_SCALAPACK_COPIES(double)
REDIST_SCALAPACK_COPIES(std::complex<float>)
REDIST_SCALAPACK_COPIES(std::complex<double>)
REDIST_SCALAPACK_COPIES(int)
#undef REDIST_SCALAPACK_COPIES

}  // namespace redist::scalapack
