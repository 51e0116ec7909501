// The C++ entries of scalapack.hpp: each names its arguments as ScaLAPACK numbers them and hands
// the copy to copy_submatrix (submatrix_call.hpp); p?tran then combines what arrived with C.
#include <cctype>
#include <complex>
#include <cstring>
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
constexpr bool is_complex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

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
          arg(9, "DESCB"), arg(10, "ICTXT"), argument(1, "UPLO"), argument(2, "DIAG"), arg(2, "A"), arg(6, "B"), "B", "",
          ""};
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

// p?tran's arguments: sub(A) is N x M, so its rows are named by argument 2.
ArgumentNames tran_names() {
  return {argument(2, "N"), argument(1, "M"), argument(5, "IA"), argument(6, "JA"), argument(7, "DESCA"),
          argument(10, "IC"), argument(11, "JC"), argument(12, "DESCC"), argument(7, "DESCA"), "", "",
          argument(4, "A"), argument(9, "C"), "C", argument(3, "ALPHA"), argument(8, "BETA")};
}

template <class T>
ScalarBits bits_of(T value) {
  ScalarBits bits{};
  if (value == T(0)) return bits;  // -0 is 0
  std::memcpy(bits.data(), &value, sizeof value);
  return bits;
}

// ScaLAPACK's arithmetic, to the bit (its PTZBLAS kernels): a complex product as Fortran's
// textbook one, two rounded products and one sum (this file is compiled without contraction
// into fused multiply-adds), and the kernels' shortcuts for alpha = 1, beta = 0 and beta = 1,
// which differ from the general formula on signed zeros, infinities and NaNs in C.
template <class T>
T times(T x, T y) {
  if constexpr (!is_complex<T>) {
    return x * y;
  } else {
    return T(x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real());
  }
}

template <class T>
T plus(T x, T y) {
  if constexpr (!is_complex<T>) {
    return x + y;
  } else {
    return T(x.real() + y.real(), x.imag() + y.imag());
  }
}

// c := beta · c + alpha · a for one element, as ScaLAPACK's p?tran.
template <class T>
T updated(T c, T a, T alpha, T beta) {
  const T zero(0), one(1);
  if (alpha == zero) return beta == zero ? zero : times(beta, c);
  const T scaled = alpha == one ? a : times(alpha, a);
  if (beta == zero) return scaled;
  if (beta == one) return plus(c, scaled);
  return plus(scaled, times(beta, c));
}

template <class T>
void transpose_update(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic, int jc,
                      const int* descc, bool conjugate) {
  SubmatrixCall call = copy_call<T>(routine<T>(conjugate ? "tranc" : is_complex<T> ? "tranu" : "tran"),
                                    tran_names(), n, m, ia, ja, desca, ic, jc, descc, desca != nullptr ? desca[1] : -1);
  call.transpose = true;
  call.one_context = true;
  call.reader = Reader::Pblas;
  const T zero(0), one(1);
  call.move = alpha != zero;  // alpha 0: A is not read, nothing moves
  // C is written unless alpha is 0 and beta 1 (PBLAS returns at once): a null C where this rank
  // holds part of sub(C) is refused, as a null A is, before anything moves.
  call.b_null = c == nullptr && !(alpha == zero && beta == one);
  call.alpha = bits_of(alpha);  // agreed between the ranks: a rank scaling otherwise is refused
  call.beta = bits_of(beta);
  std::vector<std::byte> scratch;
  const Written& written = copy_submatrix_to_scratch(call, bytes(a), scratch);
  if (alpha == zero && beta == one) return;
  const T* arrived = reinterpret_cast<const T*>(scratch.data());
  for (const PeerPlan& from : written) {
    for (const Index k : local_offsets(from)) {
      T value = call.move ? arrived[k] : zero;
      if constexpr (is_complex<T>) {
        if (conjugate) value = std::conj(value);
      }
      c[k] = updated(c[k], value, alpha, beta);
    }
  }
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
  // ScaLAPACK's reading of the letters (REDIST's insidemat): UPLO 'U' or 'u' is the upper
  // trapezoid and any other letter the lower one; DIAG leaves the diagonal out when it is 'U' for
  // a lower trapezoid, and when it is anything but 'N' for an upper one.
  const bool upper = std::toupper(static_cast<unsigned char>(uplo)) == 'U';
  const char d = static_cast<char>(std::toupper(static_cast<unsigned char>(diag)));
  call.uplo = upper ? 'U' : 'L';
  call.diag = (upper ? d != 'N' : d == 'U') ? 'U' : 'N';
  copy_submatrix(call, bytes(a), reinterpret_cast<std::byte*>(b));
}

template <class T>
void tran(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic, int jc,
          const int* descc) {
  transpose_update(m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc, false);
}

template <class T>
void tranc(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic, int jc,
           const int* descc) {
  transpose_update(m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc, true);
}

#define REDIST_SCALAPACK_TRAN(T) \
  template void tran<T>(int, int, T, const T*, int, int, const int*, T, T*, int, int, const int*);
REDIST_SCALAPACK_TRAN(float)
REDIST_SCALAPACK_TRAN(double)
REDIST_SCALAPACK_TRAN(std::complex<float>)
REDIST_SCALAPACK_TRAN(std::complex<double>)
REDIST_SCALAPACK_TRAN(int)  // no pitran in ScaLAPACK: redist's own, same semantics
#undef REDIST_SCALAPACK_TRAN
template void tranc<std::complex<float>>(int, int, std::complex<float>, const std::complex<float>*, int, int,
                                         const int*, std::complex<float>, std::complex<float>*, int, int, const int*);
template void tranc<std::complex<double>>(int, int, std::complex<double>, const std::complex<double>*, int, int,
                                          const int*, std::complex<double>, std::complex<double>*, int, int, const int*);

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
