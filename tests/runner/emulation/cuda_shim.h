// A CPU stand-in for the CUDA features the runner's generated CUDA C uses, so that the
// generated kernels can be compiled with g++ and run (one std::thread per CUDA thread,
// blocks one after another) to check the code generator without a GPU.
#pragma once
#define MLIR_CPU_EMULATION 1
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) alignas(n)

struct mlir_dim3 { unsigned x, y, z; };
inline thread_local mlir_dim3 threadIdx;
inline thread_local mlir_dim3 blockIdx;
inline mlir_dim3 blockDim, gridDim;
inline std::barrier<>* mlir_emu_barrier;
inline unsigned mlir_emu_exchange[1024];
alignas(16) inline signed char mlir_emu_dsmem[256 * 1024];
#define MLIR_DYNAMIC_SHARED(name) signed char* name = mlir_emu_dsmem

inline void __syncthreads() { mlir_emu_barrier->arrive_and_wait(); }
inline unsigned __activemask() { return 0xffffffffu; }
[[noreturn]] inline void __trap() { std::abort(); }

template <typename To, typename From> inline To mlir_bits(From x) { To y; std::memcpy(&y, &x, sizeof(y)); return y; }
inline float __int_as_float(int x) { return mlir_bits<float>(x); }
inline int __float_as_int(float x) { return mlir_bits<int>(x); }
inline float __uint_as_float(unsigned x) { return mlir_bits<float>(x); }
inline unsigned __float_as_uint(float x) { return mlir_bits<unsigned>(x); }
inline double __longlong_as_double(long long x) { return mlir_bits<double>(x); }
inline long long __double_as_longlong(double x) { return mlir_bits<long long>(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
using std::isnan;
using std::isinf;
using std::isfinite;

// f16 conversions for the generated code's `struct mlir_f16 { unsigned short x; }` (defined after this).
struct mlir_f16;
template <typename H> inline float mlir_h2f(H h) { return (float)mlir_bits<_Float16>(h.x); }
template <typename H = mlir_f16> inline H mlir_f2h(float f) { H h; h.x = mlir_bits<unsigned short>((_Float16)f); return h; }

template <typename T> inline T atomicCAS(T* p, T cmp, T val) {
  __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
template <typename T, typename F> inline T mlir_emu_update(T* p, F f) {
  T old, next;
  __atomic_load(p, &old, __ATOMIC_SEQ_CST);
  do { next = f(old); } while (!__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  return old;
}
template <typename T> inline T atomicAdd(T* p, T v) { return mlir_emu_update(p, [&](T o) { return (T)(o + v); }); }
template <typename T> inline T atomicExch(T* p, T v) { return mlir_emu_update(p, [&](T) { return v; }); }
template <typename T> inline T atomicMax(T* p, T v) { return mlir_emu_update(p, [&](T o) { return o > v ? o : v; }); }
template <typename T> inline T atomicMin(T* p, T v) { return mlir_emu_update(p, [&](T o) { return o < v ? o : v; }); }
template <typename T> inline T atomicAnd(T* p, T v) { return mlir_emu_update(p, [&](T o) { return (T)(o & v); }); }
template <typename T> inline T atomicOr(T* p, T v) { return mlir_emu_update(p, [&](T o) { return (T)(o | v); }); }

// shfl.sync with PTX's semantics (mode 0 up, 1 down, 2 bfly, 3 idx); every thread of the
// block must reach it (the generated code only shuffles in uniform control flow in tests).
inline unsigned mlir_emu_shfl(int mode, unsigned v, unsigned b, unsigned c, bool* valid) {
  unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int lane = (int)(tid & 31u);
  mlir_emu_exchange[tid] = v;
  __syncthreads();
  int segmask = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
  int max_lane = (lane & segmask) | (clamp & ~segmask), min_lane = lane & segmask;
  int j = lane;
  bool p = false;
  switch (mode) {
    case 0: j = lane - (int)b; p = j >= max_lane; break;
    case 1: j = lane + (int)b; p = j <= max_lane; break;
    case 2: j = lane ^ (int)b; p = j <= max_lane; break;
    default: j = min_lane | ((int)(b & 31u) & ~segmask); p = j <= max_lane; break;
  }
  if (!p) j = lane;
  unsigned r = mlir_emu_exchange[tid - lane + j];
  __syncthreads();
  *valid = p;
  return r;
}
inline unsigned mlir_shfl_up(unsigned v, unsigned b, unsigned c, unsigned, bool* ok) { return mlir_emu_shfl(0, v, b, c, ok); }
inline unsigned mlir_shfl_down(unsigned v, unsigned b, unsigned c, unsigned, bool* ok) { return mlir_emu_shfl(1, v, b, c, ok); }
inline unsigned mlir_shfl_bfly(unsigned v, unsigned b, unsigned c, unsigned, bool* ok) { return mlir_emu_shfl(2, v, b, c, ok); }
inline unsigned mlir_shfl_idx(unsigned v, unsigned b, unsigned c, unsigned, bool* ok) { return mlir_emu_shfl(3, v, b, c, ok); }

inline void mlir_emu_run(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                         const std::function<void()>& body) {
  gridDim = {gx, gy, gz};
  blockDim = {bx, by, bz};
  unsigned n = bx * by * bz;
  for (unsigned z = 0; z < gz; ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x) {
        std::barrier<> bar((std::ptrdiff_t)n);
        mlir_emu_barrier = &bar;
        std::vector<std::thread> threads;
        threads.reserve(n);
        for (unsigned t = 0; t < n; ++t)
          threads.emplace_back([&, t, x, y, z] {
            blockIdx = {x, y, z};
            threadIdx = {t % bx, (t / bx) % by, t / (bx * by)};
            body();
          });
        for (auto& th : threads) th.join();
      }
}
