// stablehlo.fft: FFT, IFFT, RFFT and IRFFT over the last `fft_length` dimensions, as the spec
// defines them (IFFT scaled by 1/N; RFFT keeps N/2 + 1 outputs of the last dimension; IRFFT
// rebuilds the Hermitian-symmetric spectrum from N/2 + 1 inputs and returns N real values).
// Every 1-D transform is computed in double precision: an iterative radix-2 FFT for powers of two
// and Bluestein's algorithm (a chirp convolution done with radix-2 FFTs) for other lengths, with
// twiddles evaluated directly from cos/sin rather than by recurrence. Results are rounded to the
// element type once, when stored.
#include "core/exec/detail/kernel.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;
using Complex = std::complex<double>;

enum class FftType { Fft, Ifft, Rfft, Irfft };

std::optional<FftType> parseFftType(const std::string& text) {
  if (text == "FFT")
    return FftType::Fft;
  if (text == "IFFT")
    return FftType::Ifft;
  if (text == "RFFT")
    return FftType::Rfft;
  if (text == "IRFFT")
    return FftType::Irfft;
  return std::nullopt;
}

bool isPowerOfTwo(size_t n) { return n && (n & (n - 1)) == 0; }

// exp(-2 pi i k / n), the forward twiddle factor. The angle is reduced with integer arithmetic
// to a quadrant and to at most pi/4 before calling cos/sin, so multiples of a quarter turn are
// exact (cos(pi/2) is 0, not 6e-17) and symmetric twiddles are exact negations of each other:
// small transforms of integers give exact results, as in FFTPACK-style implementations.
Complex twiddle(size_t k, size_t n) {
  k %= n;
  size_t quadrant = 4 * k / n, r = 4 * k % n; // angle = (quadrant + r / n) * pi / 2
  double c, s;
  if (2 * r <= n) {
    double phi = std::numbers::pi / 2 * static_cast<double>(r) / static_cast<double>(n);
    c = std::cos(phi);
    s = std::sin(phi);
  } else {
    double psi = std::numbers::pi / 2 * static_cast<double>(n - r) / static_cast<double>(n);
    c = std::sin(psi);
    s = std::cos(psi);
  }
  // (cos, sin) of the full angle, then conjugated for the forward sign.
  switch (quadrant) {
  case 0:
    return {c, -s};
  case 1:
    return {-s, -c};
  case 2:
    return {-c, s};
  default:
    return {s, c};
  }
}

// In-place forward DFT of a power-of-two length: bit-reversal permutation, then butterflies.
void radix2(std::vector<Complex>& x) {
  size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j |= bit;
    if (i < j)
      std::swap(x[i], x[j]);
  }
  std::vector<Complex> w(n / 2);
  for (size_t k = 0; k < n / 2; ++k)
    w[k] = twiddle(k, n);
  for (size_t len = 2; len <= n; len <<= 1) {
    size_t step = n / len;
    for (size_t start = 0; start < n; start += len)
      for (size_t k = 0; k < len / 2; ++k) {
        Complex u = x[start + k];
        Complex v = x[start + k + len / 2] * w[k * step];
        x[start + k] = u + v;
        x[start + k + len / 2] = u - v;
      }
  }
}

// Forward DFT of any length through Bluestein's identity
// X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k - j]) with the chirp c[k] = exp(-pi i k^2 / n),
// the sum being a convolution computed with power-of-two FFTs.
void bluestein(std::vector<Complex>& x) {
  size_t n = x.size();
  size_t m = 1;
  while (m < 2 * n - 1)
    m <<= 1;
  std::vector<Complex> chirp(n);
  for (size_t k = 0; k < n; ++k)
    chirp[k] = twiddle((k * k) % (2 * n), 2 * n); // k^2 mod 2n keeps large k accurate
  std::vector<Complex> a(m), b(m);
  for (size_t k = 0; k < n; ++k)
    a[k] = x[k] * chirp[k];
  b[0] = std::conj(chirp[0]);
  for (size_t k = 1; k < n; ++k)
    b[k] = b[m - k] = std::conj(chirp[k]);
  radix2(a);
  radix2(b);
  for (size_t k = 0; k < m; ++k)
    a[k] = std::conj(a[k] * b[k]); // inverse FFT by conjugation: ifft(y) = conj(fft(conj(y))) / m
  radix2(a);
  for (size_t k = 0; k < n; ++k)
    x[k] = chirp[k] * std::conj(a[k]) / static_cast<double>(m);
}

// The 1-D DFT of `x` in place; `inverse` gives the inverse transform scaled by 1/n.
void transform(std::vector<Complex>& x, bool inverse) {
  size_t n = x.size();
  if (n <= 1)
    return;
  if (inverse)
    for (Complex& v : x)
      v = std::conj(v);
  if (isPowerOfTwo(n))
    radix2(x);
  else
    bluestein(x);
  if (inverse)
    for (Complex& v : x)
      v = std::conj(v) / static_cast<double>(n);
}

// Applies `fn` to every 1-D line of `data` (row-major, `shape`) along dimension `dim`: the line
// is gathered, transformed in place, and scattered back.
template <typename Fn>
void forEachLine(std::vector<Complex>& data, const std::vector<int64_t>& shape, size_t dim,
                 Fn&& fn) {
  int64_t n = shape[dim], inner = 1, total = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  for (int64_t s : shape)
    total *= s;
  if (total == 0)
    return;
  std::vector<Complex> line(static_cast<size_t>(n));
  for (int64_t outer = 0; outer < total / (n * inner); ++outer)
    for (int64_t i = 0; i < inner; ++i) {
      size_t base = static_cast<size_t>(outer * n * inner + i);
      for (int64_t k = 0; k < n; ++k)
        line[static_cast<size_t>(k)] = data[base + static_cast<size_t>(k * inner)];
      fn(line);
      for (int64_t k = 0; k < n; ++k)
        data[base + static_cast<size_t>(k * inner)] = line[static_cast<size_t>(k)];
    }
}

// The inverse of RFFT along one line: `half` holds N/2 + 1 values of a Hermitian spectrum of
// length `n`; returns the N real samples (as complex values with zero imaginary part). The
// imaginary parts of the DC and Nyquist terms cannot contribute to a real signal and drop out.
void inverseReal(std::vector<Complex>& half, size_t n) {
  std::vector<Complex> full(n);
  for (size_t k = 0; k < n; ++k)
    full[k] = k < half.size() ? half[k] : std::conj(half[n - k]);
  transform(full, /*inverse=*/true);
  for (Complex& v : full)
    v = {v.real(), 0.0};
  half = std::move(full);
}

// IRFFT's last step: every last-dimension line of `data` (`half` = N/2 + 1 values) becomes `n`
// real samples; returns the `total` values of the grown tensor.
std::vector<Complex> inverseRealLastDim(const std::vector<Complex>& data, int64_t half, int64_t n,
                                        int64_t total) {
  std::vector<Complex> grown(static_cast<size_t>(total));
  size_t lines = half == 0 || n == 0 ? 0 : data.size() / static_cast<size_t>(half);
  for (size_t line = 0; line < lines; ++line) {
    std::vector<Complex> v(data.begin() + static_cast<ptrdiff_t>(line * half),
                           data.begin() + static_cast<ptrdiff_t>((line + 1) * half));
    inverseReal(v, static_cast<size_t>(n));
    std::copy(v.begin(), v.end(), grown.begin() + static_cast<ptrdiff_t>(line * n));
  }
  return grown;
}

struct FftPlan {
  FftType type = FftType::Fft;
  std::vector<int64_t> lengths;
};

std::string listText(std::span<const int64_t> v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

// `t`'s trailing dimensions equal `lengths`, except that the last one is `lastDim`.
bool trailingDimsAre(const Tensor& t, const std::vector<int64_t>& lengths, int64_t lastDim) {
  size_t l = lengths.size();
  if (static_cast<size_t>(t.rank()) < l)
    return false;
  for (size_t k = 0; k < l; ++k) {
    int64_t expected = k + 1 == l ? lastDim : lengths[k];
    if (t.shape()[t.rank() - l + k] != expected)
      return false;
  }
  return true;
}

// The spec's constraints (C1)-(C5): element types per `fft_type`, 1 to 3 lengths, the real side
// ending in `fft_length`, and the other side matching it (last dim N/2 + 1 for RFFT/IRFFT).
bool validFft(KernelContext& ctx, const FftPlan& plan, const Tensor& x, const Tensor& out) {
  ElementType in = x.elementType(), res = out.elementType();
  bool typesOk = false;
  switch (plan.type) {
  case FftType::Fft:
  case FftType::Ifft:
    typesOk = ir::isComplexElement(in) && in == res;
    break;
  case FftType::Rfft:
    typesOk = complexTypeOf(in) == res;
    break;
  case FftType::Irfft:
    typesOk = complexTypeOf(res) == in;
    break;
  }
  if (!typesOk)
    return ctx.fail("element types " + x.type().str() + " -> " + out.type().str() +
                    " do not fit fft_type " + enumCase(ctx.op, "fft_type"));
  int64_t n = plan.lengths.back();
  int64_t half = n == 0 ? 0 : n / 2 + 1;
  bool isReal = plan.type == FftType::Rfft || plan.type == FftType::Irfft;
  const Tensor& full = plan.type == FftType::Irfft ? out : x;
  const Tensor& other = plan.type == FftType::Irfft ? x : out;
  if (!trailingDimsAre(full, plan.lengths, n))
    return ctx.fail("dimensions of " + full.type().str() + " do not end in fft_length " +
                    listText(plan.lengths));
  bool batchMatches =
      other.rank() == full.rank() &&
      std::equal(full.shape().begin(), full.shape().end() - 1, other.shape().begin()) &&
      other.shape().back() == (isReal ? half : n);
  if (!batchMatches)
    return ctx.fail("dimensions of " + x.type().str() + " and " + out.type().str() +
                    " do not match for fft_length " + listText(plan.lengths));
  return true;
}

bool fft(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  FftPlan plan;
  std::optional<FftType> type = parseFftType(enumCase(ctx.op, "fft_type"));
  std::optional<std::vector<int64_t>> lengths = intListAttr(ctx.op, "fft_length");
  if (!type)
    return ctx.fail("expected 'fft_type' FFT, IFFT, RFFT or IRFFT");
  if (!lengths || lengths->empty() || lengths->size() > 3 ||
      static_cast<int64_t>(lengths->size()) > x.rank())
    return ctx.fail("expected 1 to 3 'fft_length' entries, at most the operand rank " +
                    std::to_string(x.rank()));
  plan.type = *type;
  plan.lengths = *lengths;
  if (!validFft(ctx, plan, x, *out))
    return false;

  // Work on the operand's shape in double-precision complex numbers (real operands get a zero
  // imaginary part); the transformed dimensions are the last `l` of them.
  std::vector<int64_t> shape = x.shape();
  std::vector<Complex> data(static_cast<size_t>(x.numElements()));
  for (int64_t i = 0; i < x.numElements(); ++i)
    data[static_cast<size_t>(i)] = x.complexAt(i);
  size_t rank = shape.size(), l = plan.lengths.size();
  bool inverse = plan.type == FftType::Ifft || plan.type == FftType::Irfft;
  auto forward = [](std::vector<Complex>& line) { transform(line, /*inverse=*/false); };
  auto backward = [](std::vector<Complex>& line) { transform(line, /*inverse=*/true); };
  if (!inverse) {
    // FFT and RFFT: innermost dimension first (the spec's result1, result2, ...).
    for (size_t k = 0; k < l; ++k)
      forEachLine(data, shape, rank - 1 - k, forward);
  } else {
    // IFFT and IRFFT: outermost transformed dimension first; IRFFT's last step is the inverse
    // real transform of the last dimension, which also grows it from N/2 + 1 to N.
    for (size_t k = 0; k + 1 < l; ++k)
      forEachLine(data, shape, rank - l + k, backward);
    if (plan.type == FftType::Ifft) {
      forEachLine(data, shape, rank - 1, backward);
    } else {
      data = inverseRealLastDim(data, shape.back(), out->shape().back(), out->numElements());
      shape = out->shape();
    }
  }

  // RFFT keeps the first N/2 + 1 values of each last-dimension line.
  int64_t keep = out->rank() ? out->shape().back() : 1;
  int64_t have = shape.empty() ? 1 : shape.back();
  for (int64_t i = 0; i < out->numElements(); ++i) {
    int64_t from = keep == 0 ? 0 : (i / keep) * have + i % keep;
    out->setComplex(i, data[static_cast<size_t>(from)]);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

void registerFftKernels(std::map<std::string, Kernel, std::less<>>& t) { t["stablehlo.fft"] = fft; }

} // namespace shardscope::exec::detail
