// The CUDA PML layer pass alone (engine/wave/pml_correction_cuda.cuh): GPU time per step of its
// element pass (add_element_forces) and node pass (update_nodes + write_nodes, the split
// design's pair) on the paper model with a 10-cell PML on five faces (the top free), from random
// states (a new u each step, the one before u-), timed with CUDA events around each pass. The
// first steps also run the CPU pass (pml_correction_cpu.hpp, the oracle of the gpu tests) on the
// same states and print the largest difference of the forces and of u+ relative to their peaks.
// Results: bench/results/boundary.md.
//
// Build against a Release build directory with CUDA (here build-device, configured by
// scripts/device-run.sh build), from it: compile with nvcc, link as CMake links the tests
// (the engine tests' libraries less gtest's):
//   nvcc -O3 -DNDEBUG -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler -fopenmp
//        -DVOXWAVE_ASSETS_DIR="\"$PWD/../assets\"" -I../engine -I/usr/include/hdf5/serial
//        -isystem /usr/include/eigen3 -c ../bench/micro/pml_layer_pass_cuda.cu -o pml_layer_pass_cuda.o
//   c++ -fopenmp pml_layer_pass_cuda.o -o pml_layer_pass_cuda $(sed -n 's/^ *LINK_PATH = //p' build.ninja |
//        head -1) $LIBS
// with LIBS as in pml_layer_pass_cpu.cpp, and run: ./pml_layer_pass_cuda [spacing m = 0.002]
// [steps = 50] [rayleigh 1|0 = 1] (the pml phase of scripts/device-run.sh does all three).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "boundary/pml_layer.hpp"
#include "core/cuda_check.cuh"
#include "core/device_buffer.cuh"
#include "pml_paper_layer.hpp"
#include "wave/pml_correction_cpu.hpp"
#include "wave/pml_correction_cuda.cuh"
#include "wave/wave_problem.hpp"

using namespace voxwave;

namespace {

// Largest |a - b| over the largest |b|.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0, peak = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, std::abs(a[i] - b[i]));
        peak = std::max(peak, std::abs(b[i]));
    }
    return peak > 0 ? d / peak : d;
}

}  // namespace

int main(int argc, char** argv) {
    const double ds = argc > 1 ? std::atof(argv[1]) : 0.002;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 50;
    const bool rayleigh = argc > 3 ? std::atoi(argv[3]) != 0 : true;
    const WaveProblem p = pml_paper_layer_problem(ds, rayleigh, "pml_layer_pass_cuda");
    const PmlTables tables = pml_tables(p.boundary.pml, p.grid, p.node_mass, p.dt);
    cuda::PmlCorrection<double> gpu(p, tables);
    PmlCorrectionCpu<double> cpu(p);
    const std::size_t nn = p.grid.node_count();
    std::vector<double> u(3 * nn), um(3 * nn), f_cpu(3 * nn), next_cpu(3 * nn, 0.0);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (double& x : u) x = uniform(rng);
    for (double& x : um) x = uniform(rng);
    cuda::DeviceBuffer<double> d_u(3 * nn), d_um(3 * nn), d_f(3 * nn), d_next(3 * nn);
    d_next.resize(3 * nn);  // zeroed, as next_cpu
    const auto parts = [nn](double* v) { return std::array<double*, 3>{v, v + nn, v + 2 * nn}; };
    const auto cparts = [nn](const double* v) { return std::array<const double*, 3>{v, v + nn, v + 2 * nn}; };
    d_u.upload(u);
    d_um.upload(um);
    gpu.reset(cparts(d_um.get()).data(), cparts(d_u.get()).data());
    cpu.reset(cparts(um.data()), cparts(u.data()));
    const double b = p.rayleigh.beta / p.dt;
    constexpr int kWarmup = 2, kChecked = 3;
    cudaEvent_t e0, e1, e2;
    VOXWAVE_CUDA_CHECK(cudaEventCreate(&e0));
    VOXWAVE_CUDA_CHECK(cudaEventCreate(&e1));
    VOXWAVE_CUDA_CHECK(cudaEventCreate(&e2));
    double element_ms = 0, node_ms = 0, worst_f = 0, worst_u = 0;
    for (int k = 0; k < steps + kWarmup; ++k) {
        VOXWAVE_CUDA_CHECK(cudaMemset(d_f.get(), 0, d_f.bytes()));
        cuda::PmlTarget<double> target;
        const std::array<double*, 3> f = parts(d_f.get());
        for (int c = 0; c < 3; ++c) target.out[c] = f[c];
        cuda::PmlNodeForce<double> force;
        for (int c = 0; c < 3; ++c) force.f[c] = f[c];
        force.keep = 1.0 + b;
        force.b = b;
        VOXWAVE_CUDA_CHECK(cudaEventRecord(e0));
        gpu.add_element_forces(cparts(d_u.get()).data(), cparts(d_um.get()).data(), b, target);
        VOXWAVE_CUDA_CHECK(cudaEventRecord(e1));
        gpu.update_nodes(cparts(d_u.get()).data(), cparts(d_um.get()).data(), force, nullptr);
        gpu.write_nodes(parts(d_next.get()).data());
        VOXWAVE_CUDA_CHECK(cudaEventRecord(e2));
        VOXWAVE_CUDA_CHECK(cudaEventSynchronize(e2));
        float t_element = 0, t_node = 0;
        VOXWAVE_CUDA_CHECK(cudaEventElapsedTime(&t_element, e0, e1));
        VOXWAVE_CUDA_CHECK(cudaEventElapsedTime(&t_node, e1, e2));
        if (k >= kWarmup) {
            element_ms += t_element;
            node_ms += t_node;
        }
        if (k < kChecked) {
            std::fill(f_cpu.begin(), f_cpu.end(), 0.0);
            cpu.add_element_forces(cparts(u.data()), cparts(um.data()), b, parts(f_cpu.data()));
            cpu.update_nodes(cparts(u.data()), cparts(f_cpu.data()), parts(next_cpu.data()));
            worst_f = std::max(worst_f, relative_difference(d_f.download(), f_cpu));
            worst_u = std::max(worst_u, relative_difference(d_next.download(), next_cpu));
        }
        um.swap(u);
        for (double& x : u) x = uniform(rng);
        d_um.swap(d_u);
        d_u.upload(u);
    }
    std::printf(
        "%zu layer elements, %zu layer nodes, Rayleigh beta %s, %d steps: element pass %.1f us, node pass %.1f us "
        "a step (CUDA events); against the CPU pass over the first %d steps: forces %.2e, u+ %.2e of the peak\n",
        tables.element.size(), tables.node.size(), rayleigh ? "on" : "off", steps, 1e3 * element_ms / steps,
        1e3 * node_ms / steps, kChecked, worst_f, worst_u);
    return worst_f < 1e-12 && worst_u < 1e-12 ? 0 : 1;
}
