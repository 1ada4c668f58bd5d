/* kit_thrust.cuh - the Thrust yardsticks' calls, with every CUDA error returned, none thrown.
 *
 * Thrust reports a CUDA error by throwing thrust::system_error, and its default temporary
 * storage throws one when cudaFree fails ("device free failed") from temporary_allocator::
 * deallocate, which is noexcept, so C++ calls std::terminate: a kernel fault during a call (a
 * sticky error, which every later cudaFree returns) kills the whole process instead of failing
 * the call.
 * kit_thrust hands Thrust an allocator of its own (cudaMalloc and cudaFree, as Thrust's default,
 * so that the yardstick's timing is what a user's call costs) whose free records its error
 * rather than throwing, and run() turns what was thrown into the CUDA error it carries:
 *
 *     kit_thrust t;
 *     return t.run([&] { thrust::sort(t.on(s), first, last); });
 *
 * returns the first error seen: the one thrown (a Thrust system_error of the CUDA category:
 * its code; std::bad_alloc: cudaErrorMemoryAllocation; anything else: cudaErrorUnknown), else a
 * free's, else cudaGetLastError(). */
#ifndef KIT_THRUST_CUH
#define KIT_THRUST_CUH

#include <cstddef>
#include <new>

#include <thrust/execution_policy.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

struct kit_thrust_alloc {
    typedef char value_type;
    cudaError_t *freed; /* where a failed free leaves its error (the first one) */

    char *allocate(std::ptrdiff_t bytes)
    {
        void *p = nullptr;
        const cudaError_t e = cudaMalloc(&p, bytes > 0 ? (size_t)bytes : 1);
        if (e != cudaSuccess) {
            (void)cudaGetLastError(); /* an allocation's failure is not sticky: clear it */
            throw thrust::system_error(e, thrust::cuda_category(), "kit_thrust_alloc");
        }
        return (char *)p;
    }
    void deallocate(char *p, size_t) noexcept
    {
        const cudaError_t e = cudaFree(p);
        if (e != cudaSuccess && *freed == cudaSuccess) *freed = e;
    }
};

struct kit_thrust {
    cudaError_t freed = cudaSuccess;
    kit_thrust_alloc alloc{&freed}; /* points into this object: not to be copied */

    kit_thrust() = default;
    kit_thrust(const kit_thrust &) = delete;
    kit_thrust &operator=(const kit_thrust &) = delete;

    /* thrust::cuda::par on stream s, with this allocator (held by reference) */
    auto on(cudaStream_t s) { return thrust::cuda::par(alloc).on(s); }

    template <class F>
    cudaError_t run(F &&f)
    {
        try {
            f();
        } catch (const thrust::system_error &e) {
            return e.code().category() == thrust::cuda_category() && e.code().value() != 0
                       ? (cudaError_t)e.code().value()
                       : cudaErrorUnknown;
        } catch (const std::bad_alloc &) {
            return cudaErrorMemoryAllocation;
        } catch (...) {
            return cudaErrorUnknown;
        }
        return freed != cudaSuccess ? freed : cudaGetLastError();
    }
};

#endif
