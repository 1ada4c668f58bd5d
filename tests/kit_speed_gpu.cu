/* kit_speed_gpu.cu - the device's half of a speed test's batch (kit_speed.h): unmask the staged
 * inputs and commit to the outputs on the device, inside the timed batch; and the device's copy
 * bandwidth, the floor's yardstick, measured in the same run. */
#include <cuda_runtime.h>

#include "kit_speed.h"

/* every word of K inputs of n words: XOR with its keystream word */
__global__ void speed_unmask(uint64_t *w, size_t n, size_t K, uint64_t key)
{
    const size_t total = n * K, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride)
        w[i] ^= kit_speed_mask(key, i / n, i % n);
}

/* one block per output: its threads sum their words' terms, then the block sums its threads' */
__global__ void speed_commit(const uint64_t *out, size_t m, uint64_t key, uint64_t *commits)
{
    __shared__ unsigned long long part[256];
    const uint64_t *o = out + (size_t)blockIdx.x * m;
    unsigned long long h = 0;
    for (size_t i = threadIdx.x; i < m; i += blockDim.x) h += kit_speed_term(key, i, o[i]);
    part[threadIdx.x] = h;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) commits[blockIdx.x] = part[0];
}

extern "C" int kit_speed_gpu_unmask(uint64_t *d_in, size_t n, size_t K, uint64_t key, void *stream)
{
    speed_unmask<<<1024, 256, 0, (cudaStream_t)stream>>>(d_in, n, K, key);
    return (int)cudaGetLastError();
}

extern "C" int kit_speed_gpu_commit(const uint64_t *d_out, size_t m, size_t K, uint64_t key, uint64_t *d_commits,
                                    void *stream)
{
    if (K == 0) return 0;
    speed_commit<<<(unsigned)K, 256, 0, (cudaStream_t)stream>>>(d_out, m, key, d_commits);
    return (int)cudaGetLastError();
}

/* bytes read and written per second by cudaMemcpy from device to device over `bytes`, best of 5 */
extern "C" int kit_speed_gpu_bandwidth(size_t bytes, double *bytes_per_s)
{
    void *a = NULL, *b = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float ms, best = 1e30f;
    cudaError_t e = cudaMalloc(&a, bytes);
    if (e == cudaSuccess) e = cudaMalloc(&b, bytes);
    if (e == cudaSuccess) e = cudaEventCreate(&e0);
    if (e == cudaSuccess) e = cudaEventCreate(&e1);
    for (int r = 0; r < 6 && e == cudaSuccess; r++) {
        e = cudaEventRecord(e0);
        if (e == cudaSuccess) e = cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
        if (e == cudaSuccess) e = cudaEventRecord(e1);
        if (e == cudaSuccess) e = cudaEventSynchronize(e1);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, e0, e1);
        if (e == cudaSuccess && r > 0 && ms < best) best = ms; /* the first run warms up */
    }
    if (e == cudaSuccess) *bytes_per_s = 2.0 * (double)bytes / (best * 1e-3);
    cudaFree(a);
    cudaFree(b);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return (int)e;
}
