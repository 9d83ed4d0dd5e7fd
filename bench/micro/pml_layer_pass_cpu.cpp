// The CPU PML layer pass alone (engine/wave/pml_correction_cpu.hpp): process CPU time per step of
// its element pass (add_element_forces) and node pass (update_nodes) on the paper model with a
// 10-cell PML on five faces (the top free), from random states (a new u each step, the one before
// u-), so that the passes run as in a stepper without the interior's cost beside them. The
// checksums (sums of |f| and |u+| after the last step) compare two builds of the pass: equal
// arithmetic gives equal sums. Results: bench/results/boundary.md.
//
// Build against a Release build directory (here build-x, configured as README.md says), from it:
//   g++ -O3 -DNDEBUG -fopenmp -march=native -std=c++20 -DVOXWAVE_ASSETS_DIR="\"$PWD/../assets\""
//       -I../engine ../bench/micro/pml_layer_pass_cpu.cpp -o pml_layer_pass_cpu $LIBS
// with LIBS the libraries of the engine tests less gtest's:
//   LIBS=$(sed -n 's/^ *LINK_LIBRARIES = //p' build.ninja | grep voxwave_wave | head -1 |
//          sed 's#tests/libvoxwave_gtest_main.a##; s#[^ ]*libgtest.a##')
// and run: OMP_NUM_THREADS=1 ./pml_layer_pass_cpu [spacing m = 0.004] [steps = 20] [rayleigh 1|0 = 1]
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "pml_paper_layer.hpp"
#include "wave/pml_correction_cpu.hpp"
#include "wave/wave_problem.hpp"

using namespace voxwave;

namespace {
double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
    const double ds = argc > 1 ? std::atof(argv[1]) : 0.004;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
    const bool rayleigh = argc > 3 ? std::atoi(argv[3]) != 0 : true;
    const WaveProblem p = pml_paper_layer_problem(ds, rayleigh, "pml_layer_pass_cpu");
    PmlCorrectionCpu<double> pml(p);
    const std::size_t nn = p.grid.node_count();
    std::vector<double> u(3 * nn), um(3 * nn), f(3 * nn, 0.0), next(3 * nn, 0.0);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (double& x : u) x = uniform(rng);
    for (double& x : um) x = uniform(rng);
    auto parts = [nn](std::vector<double>& v) {
        return std::array<double*, 3>{v.data(), v.data() + nn, v.data() + 2 * nn};
    };
    auto cparts = [nn](const std::vector<double>& v) {
        return std::array<const double*, 3>{v.data(), v.data() + nn, v.data() + 2 * nn};
    };
    pml.reset(cparts(um), cparts(u));
    const double b = p.rayleigh.beta / p.dt;
    double element_s = 0, node_s = 0;
    constexpr int kWarmup = 2;
    for (int k = 0; k < steps + kWarmup; ++k) {
        std::fill(f.begin(), f.end(), 0.0);
        const double t0 = process_cpu_seconds();
        pml.add_element_forces(cparts(u), cparts(um), b, parts(f));
        const double t1 = process_cpu_seconds();
        pml.update_nodes(cparts(u), cparts(f), parts(next));
        const double t2 = process_cpu_seconds();
        if (k >= kWarmup) {
            element_s += t1 - t0;
            node_s += t2 - t1;
        }
        um.swap(u);
        for (double& x : u) x = uniform(rng);
    }
    double f_sum = 0, u_sum = 0;
    for (double x : f) f_sum += std::abs(x);
    for (double x : next) u_sum += std::abs(x);
    std::printf(
        "%zu layer elements, %zu layer nodes, Rayleigh beta %s: element pass %.2f ms, node pass %.2f ms a step "
        "(process "
        "CPU time), %.0f B per layer element; checksums |f| %.12e, |u+| %.12e\n",
        pml.layer_elements(), pml.layer_nodes(), rayleigh ? "on" : "off", 1e3 * element_s / steps, 1e3 * node_s / steps,
        double(pml.memory_bytes()) / double(pml.layer_elements()), f_sum, u_sum);
}
