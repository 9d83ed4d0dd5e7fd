// Delay-and-sum imaging on CUDA (docs/architecture.md#imaging): the travel times of every element
// (and plane wave) to every pixel in two tables, then one thread per pixel sums the analytic
// signals from device memory in the CPU loop's order, with the same functions
// (wave/delay_and_sum.hpp), so the CPU image is its oracle. Sector scans (sector_imaging.hpp): one
// thread per (range, angle) calls the CPU loop's sector_line_value.
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device_buffer.cuh"
#include "wave/sector_imaging.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave {
namespace {

constexpr int kThreads = 256;

// The problem's arrays in device memory; `p` is the problem (passed by value to the kernels)
// pointing into them.
struct DeviceProblem {
    cuda::DeviceBuffer<double> re, im, lateral, depth, offset, plane;
    DelayAndSumProblem p;
};

void upload_problem(const DelayAndSumProblem& host, DeviceProblem& d) {
    const std::size_t signals = std::size_t(host.n_tx) * std::size_t(host.n_rx) * std::size_t(host.nt);
    const auto n_el = std::size_t(host.n_rx);
    d.re = cuda::DeviceBuffer<double>(signals);
    d.re.upload(host.signal_re, signals);
    d.im = cuda::DeviceBuffer<double>(signals);
    d.im.upload(host.signal_im, signals);
    d.lateral = cuda::DeviceBuffer<double>(n_el);
    d.lateral.upload(host.element_lateral, n_el);
    d.depth = cuda::DeviceBuffer<double>(n_el);
    d.depth.upload(host.element_depth, n_el);
    d.offset = cuda::DeviceBuffer<double>(n_el);
    d.offset.upload(host.element_offset, n_el);
    d.p = host;
    d.p.signal_re = d.re.get();
    d.p.signal_im = d.im.get();
    d.p.element_lateral = d.lateral.get();
    d.p.element_depth = d.depth.get();
    d.p.element_offset = d.offset.get();
    if (host.plane_sin) {
        const auto n = std::size_t(host.n_tx);
        d.plane = cuda::DeviceBuffer<double>(2 * n);
        d.plane.upload(host.plane_sin, n);
        d.plane.upload(host.plane_cos, n, n);
        d.p.plane_sin = d.plane.get();
        d.p.plane_cos = d.plane.get() + n;
    }
}

// table[e * pixels + pix]: the leg time of transmission (transmit = true) or receiver e.
__global__ void leg_time_table_kernel(DelayAndSumProblem p, bool transmit, int count, double* table) {
    const long long pixels = p.pixel_count();
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels * count) return;
    const int e = int(i / pixels);
    const long long pix = i % pixels;
    const double depth = p.depth0 + double(pix / p.n_lateral) * p.pixel;
    const double lateral = p.lateral0 + double(pix % p.n_lateral) * p.pixel;
    table[i] = transmit ? transmit_time(p, e, lateral, depth) : element_leg_time(p, e, lateral, depth, p.speed_rx);
}

__global__ void delay_and_sum_kernel(DelayAndSumProblem p, const double* __restrict__ t_tx,
                                     const double* __restrict__ t_rx, double* __restrict__ image) {
    const long long pixels = p.pixel_count();
    const long long pix = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (pix >= pixels) return;
    double re = 0, im = 0;
    for (int tx = 0; tx < p.n_tx; ++tx) {
        const double tt = t_tx[(long long)tx * pixels + pix];
        for (int rx = 0; rx < p.n_rx; ++rx)
            add_interpolated_sample(p, (long long)tx * p.n_rx + rx, tt + t_rx[(long long)rx * pixels + pix], re, im);
    }
    image[pix] = sqrt(re * re + im * im);
}

// values[i * n_tx + k]: range i of plane wave k's line.
__global__ void sector_lines_kernel(DelayAndSumProblem p, double* __restrict__ values) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)p.n_depth * p.n_tx) return;
    const int k = int(i % p.n_tx);
    values[i] = sector_line_value(p, k, sector_range(p, int(i / p.n_tx)));
}

unsigned blocks_for(long long n) { return unsigned((n + kThreads - 1) / kThreads); }

}  // namespace

std::vector<double> delay_and_sum_cuda(const DelayAndSumProblem& host) {
    const auto n_el = std::size_t(host.n_rx);
    const long long pixels = host.pixel_count();
    DeviceProblem d;
    upload_problem(host, d);
    const DelayAndSumProblem& p = d.p;
    // An FMC whose legs have one speed has one table for both.
    const bool shared_table = !host.plane_sin && host.speed_tx == host.speed_rx;
    cuda::DeviceBuffer<double> t_tx(std::size_t(pixels) * std::size_t(host.n_tx)), t_rx;
    leg_time_table_kernel<<<blocks_for(pixels * host.n_tx), kThreads>>>(p, true, host.n_tx, t_tx.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("leg_time_table_kernel");
    if (!shared_table) {
        t_rx = cuda::DeviceBuffer<double>(std::size_t(pixels) * n_el);
        leg_time_table_kernel<<<blocks_for(pixels * host.n_rx), kThreads>>>(p, false, host.n_rx, t_rx.get());
        VOXWAVE_CUDA_CHECK_LAUNCH("leg_time_table_kernel");
    }
    cuda::DeviceBuffer<double> image{std::size_t(pixels)};
    delay_and_sum_kernel<<<blocks_for(pixels), kThreads>>>(p, t_tx.get(), shared_table ? t_tx.get() : t_rx.get(),
                                                           image.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("delay_and_sum_kernel");
    return image.download();
}

std::vector<double> sector_lines_cuda(const DelayAndSumProblem& host) {
    DeviceProblem d;
    upload_problem(host, d);
    const long long n = (long long)host.n_depth * host.n_tx;
    cuda::DeviceBuffer<double> values{std::size_t(n)};
    sector_lines_kernel<<<blocks_for(n), kThreads>>>(d.p, values.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("sector_lines_kernel");
    return values.download();
}

}  // namespace voxwave
