// The cell schedule of the column-sweep CUDA SEM step (sem_cell_schedule.hpp), checked on the CPU
// so that a build without a GPU still proves it: cells of 1 and 3 elements along x and of 1, 2, 3
// and all 7 element planes (the last cell of a row or column shorter where the sizes do not
// divide the grid); every solid element lies in exactly one listed cell; every node with a solid
// element gets exactly one first and one last writer among the cells that visit it, at the
// lowest and highest colour of those cells (found here by walking every cell's nodes); and the
// schedule run cell by cell (each cell's element forces summed over its nodes, then the roles at
// every node) with the shared element kernel gives the CPU stepper's product K u and its damped,
// sponged step. Last, the CUDA kernel's own body (sem_cell_sweep_kernel.cuh) run on the CPU, a
// std::thread a CUDA thread and a barrier for __syncthreads, against the CPU stepper: its index
// arithmetic, the forces carried along z and handed on along x, the shared-memory exchanges and
// the roles, in FP64 and FP32, damped and sponged or not; and that body on the boxes of a
// distributed run (sem_stepper_cuda.cu's buffer rotation, the ghost exchange between the boxes)
// against the whole model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "distributed/slab_decomposition.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/central_difference.hpp"
#include "wave/halo_exchange.hpp"
#include "wave/sem_cell_schedule.hpp"
#include "wave/sem_element_kernel.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cpu.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_problem.hpp"

#include "emulated_kernel_begin.hpp"

#include "wave/sem_cell_sweep_kernel.cuh"  // its #pragma unroll: -Wno-unknown-pragmas (tests/CMakeLists.txt)

#include "emulated_kernel_end.hpp"

using namespace voxwave;
using namespace voxwave::testing;

namespace {

constexpr double kDs = 0.004;

// nx x 3 x 7 elements (3 divides neither 4 nor 7), a void that empties a whole cell of one element
// and two planes, voids inside cells, two materials, a fixed face, a sponge, Rayleigh damping
// (sponge_only: the sponge without the damping).
WaveProblem cell_problem(int order, bool damped_and_sponged = true, int nx = 4, bool sponge_only = false) {
    Scene s = block_scene(nx, 3, 7, kDs);
    s.materials.push_back(steel());
    s.shapes.push_back({"steel", BoxShape{{0.0, kDs, 2 * kDs}, {3 * kDs, 3 * kDs, 5 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{kDs, kDs, 2 * kDs}, {2 * kDs, 2 * kDs, 4 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{3 * kDs, 0.0, 5 * kDs}, {4 * kDs, kDs, 6 * kDs}}});
    s.shapes.push_back({"void", BoxShape{{0.0, 2 * kDs, 0.0}, {kDs, 3 * kDs, kDs}}});
    s.boundary.fixed_faces = {"y-"};
    if (damped_and_sponged || sponge_only) {
        s.boundary.absorbing.faces = {"z+"};
        s.boundary.absorbing.thickness = 2 * kDs;
        s.boundary.absorbing.type = "sponge";
    }
    if (damped_and_sponged) s.damping = {"rayleigh", 0.01, 100e3, 200e3};
    s.run.method = Method::Sem;
    s.run.order = order;
    validate_scene(s, "cells");
    return build_wave_problem(s, "cells");
}

struct Cell {
    int ic, j, kc, i0, i1, k0, k1;  // the cell and its elements i0 .. i1 - 1, k0 .. k1 - 1
};

Cell decode(const SemCellGrid& cg, const VoxelGrid& g, unsigned c) {
    const int ic = int(c % unsigned(cg.n[0])), j = int((c / unsigned(cg.n[0])) % unsigned(cg.n[1])),
              kc = int(c / (unsigned(cg.n[0]) * unsigned(cg.n[1])));
    return {ic,
            j,
            kc,
            ic * cg.width,
            std::min((ic + 1) * cg.width, g.n[0]),
            kc * cg.planes,
            std::min((kc + 1) * cg.planes, g.n[2])};
}

class SemCellSchedule : public ::testing::TestWithParam<int> {};

TEST_P(SemCellSchedule, CellsCoverTheSolidElementsAndOneFirstAndLastWriterAtTheLowestAndHighestColour) {
    const int p = GetParam();
    const WaveProblem prob = cell_problem(p);
    const VoxelGrid& g = prob.grid;
    const SemMesh mesh = sem_mesh(g, p);
    const std::size_t nn = mesh.node_count();
    for (int width : {1, 3})
        for (int planes : {1, 2, 3, 7}) {
            SCOPED_TRACE(::testing::Message() << "width " << width << ", planes " << planes);
            const SemCellGrid cg = sem_cell_grid(g, width, planes);
            ASSERT_EQ(cg.n[0], (4 + width - 1) / width);
            ASSERT_EQ(cg.n[2], (7 + planes - 1) / planes);
            const std::vector<unsigned char> solid = sem_cell_solid(g, cg);
            auto cell_solid = [&](int i, int j, int kc) {
                return solid[std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * kc)] != 0;
            };
            const SemCellLaunches l = sem_cell_launches(cg, solid);
            std::vector<int> covered(g.element_count(), 0);
            std::vector<int> lowest(nn, 99), highest(nn, -1), firsts(nn, 0), lasts(nn, 0);
            for (int colour = 0; colour < 8; ++colour)
                for (std::size_t s = l.begin[colour]; s < l.begin[colour + 1]; ++s) {
                    const Cell c = decode(cg, g, l.cells[s]);
                    EXPECT_EQ((c.ic & 1) + 2 * (c.j & 1) + 4 * (c.kc & 1), colour);
                    bool any = false;
                    for (int k = c.k0; k < c.k1; ++k)
                        for (int i = c.i0; i < c.i1; ++i) {
                            ++covered[g.element_index(i, c.j, k)];
                            any = any || g.at(i, c.j, k) != kVoidId;
                        }
                    EXPECT_TRUE(any);
                    for (int z = p * c.k0; z <= p * c.k1; ++z)
                        for (int b = 0; b <= p; ++b)
                            for (int x = p * c.i0; x <= p * c.i1; ++x) {
                                const std::size_t n = mesh.node_index(x, p * c.j + b, z);
                                lowest[n] = std::min(lowest[n], colour);
                                highest[n] = std::max(highest[n], colour);
                            }
                }
            // Each element of a cell with a solid element lies in one listed cell, the others in none.
            int in_void_cells = 0;
            for (int k = 0; k < g.n[2]; ++k)
                for (int j = 0; j < g.n[1]; ++j)
                    for (int i = 0; i < g.n[0]; ++i) {
                        const bool listed = cell_solid(i / width, j, k / planes);
                        EXPECT_EQ(covered[g.element_index(i, j, k)], listed ? 1 : 0);
                        if (g.at(i, j, k) != kVoidId) {
                            EXPECT_TRUE(listed);
                        }
                        in_void_cells += listed ? 0 : 1;
                    }
            if (width == 1 && planes <= 2) {
                EXPECT_GT(in_void_cells, 0);  // a cell with only void elements is left out
            }
            for (unsigned cell : l.cells) {
                const Cell c = decode(cg, g, cell);
                const int x_count = p * (c.i1 - c.i0), z_count = p * (c.k1 - c.k0);
                const int colour = (c.ic & 1) + 2 * (c.j & 1) + 4 * (c.kc & 1);
                for (int z = 0; z <= z_count; ++z)
                    for (int b = 0; b <= p; ++b)
                        for (int x = 0; x <= x_count; ++x) {
                            const std::size_t n = mesh.node_index(p * c.i0 + x, p * c.j + b, p * c.k0 + z);
                            const SemNodeRole r =
                                sem_cell_node_role(p, cg, c.ic, c.j, c.kc, x, x_count, b, z, z_count, cell_solid);
                            if (r.first) {
                                ++firsts[n];
                                EXPECT_EQ(colour, lowest[n]) << n;
                            }
                            if (r.last) {
                                ++lasts[n];
                                EXPECT_EQ(colour, highest[n]) << n;
                            }
                        }
            }
            for (std::size_t n = 0; n < nn; ++n) {
                EXPECT_EQ(firsts[n], highest[n] < 0 ? 0 : 1) << n;
                EXPECT_EQ(lasts[n], highest[n] < 0 ? 0 : 1) << n;
            }
        }
}

// The schedule on the CPU, cell by cell in colour order: the cell's element forces summed over
// its nodes (void elements add nothing), then at each node of the cell the role: write, add, or
// complete (Update: u+ into u_next; else f ends as K w).
template <int P>
void cell_schedule_pass(const WaveProblem& prob, const SemMesh& mesh, int width, int planes,
                        const std::vector<double>& u, const std::vector<double>& up, double b, bool update,
                        const UpdateCoefficients<double>& uc, std::vector<double>& f, std::vector<double>& u_next) {
    constexpr int N = P + 1, N3 = N * N * N;
    const VoxelGrid& g = prob.grid;
    const std::size_t nn = mesh.node_count();
    const SemCellGrid cg = sem_cell_grid(g, width, planes);
    const std::vector<unsigned char> solid = sem_cell_solid(g, cg);
    auto cell_solid = [&](int i, int j, int kc) {
        return solid[std::size_t(i) + std::size_t(cg.n[0]) * (std::size_t(j) + std::size_t(cg.n[1]) * kc)] != 0;
    };
    std::vector<double> ue(3 * N3), te(9 * N3), fe(3 * N3), local;
    for (unsigned cell : sem_cell_launches(cg, solid).cells) {
        const Cell c = decode(cg, g, cell);
        const int x_count = P * (c.i1 - c.i0), z_count = P * (c.k1 - c.k0);
        const std::size_t box = std::size_t(x_count + 1) * N * (z_count + 1);
        auto at = [&](int x, int y, int z) {
            return std::size_t(x) + std::size_t(x_count + 1) * (std::size_t(y) + std::size_t(N) * z);
        };
        local.assign(3 * box, 0.0);
        for (int k = c.k0; k < c.k1; ++k)
            for (int i = c.i0; i < c.i1; ++i) {
                if (g.at(i, c.j, k) == kVoidId) continue;
                const Material& m = prob.materials[g.at(i, c.j, k) - 1];
                for (int comp = 0; comp < 3; ++comp)
                    for (int q = 0; q < N3; ++q) {
                        const std::size_t n =
                            mesh.node_index(P * i + q % N, P * c.j + (q / N) % N, P * k + q / (N * N));
                        ue[comp * N3 + q] = damped_operand(u[comp * nn + n], up[comp * nn + n], 1 + b, b);
                    }
                sem_element_force<P, double>(mesh.gll.d, mesh.gll.w, m.lame_lambda(), m.shear_modulus(),
                                             0.5 * g.spacing, ue.data(), te.data(), fe.data());
                for (int comp = 0; comp < 3; ++comp)
                    for (int q = 0; q < N3; ++q)
                        local[comp * box + at(P * (i - c.i0) + q % N, (q / N) % N, P * (k - c.k0) + q / (N * N))] +=
                            fe[comp * N3 + q];
            }
        for (int z = 0; z <= z_count; ++z)
            for (int y = 0; y < N; ++y)
                for (int x = 0; x <= x_count; ++x) {
                    const SemNodeRole r =
                        sem_cell_node_role(P, cg, c.ic, c.j, c.kc, x, x_count, y, z, z_count, cell_solid);
                    const std::size_t n = mesh.node_index(P * c.i0 + x, P * c.j + y, P * c.k0 + z);
                    for (int comp = 0; comp < 3; ++comp) {
                        const std::size_t v = comp * nn + n;
                        const double own = local[comp * box + at(x, y, z)];
                        const double force = r.first ? own : f[v] + own;
                        if (r.last && update)
                            u_next[v] = central_difference_node(u[v], up[v], uc.dt2_inv_mass[n] * force,
                                                                uc.one_minus_h[n], uc.inv_one_plus_h[n]);
                        else
                            f[v] = force;
                    }
                }
    }
}

void cell_schedule_pass(const WaveProblem& prob, const SemMesh& mesh, int width, int planes,
                        const std::vector<double>& u, const std::vector<double>& up, double b, bool update,
                        const UpdateCoefficients<double>& uc, std::vector<double>& f, std::vector<double>& u_next) {
    switch (prob.order) {
        case 2:
            return cell_schedule_pass<2>(prob, mesh, width, planes, u, up, b, update, uc, f, u_next);
        case 3:
            return cell_schedule_pass<3>(prob, mesh, width, planes, u, up, b, update, uc, f, u_next);
        default:
            return cell_schedule_pass<4>(prob, mesh, width, planes, u, up, b, update, uc, f, u_next);
    }
}

// A random state of a wave's size: u within 1e-6, u- within 1e-8 of it.
void random_state(std::size_t values, unsigned seed, std::vector<double>& u, std::vector<double>& up) {
    u = voxwave::test::random_vector(values, seed);
    up = voxwave::test::random_vector(values, seed + 1);
    for (std::size_t i = 0; i < values; ++i) {
        u[i] *= 1e-6;
        up[i] = u[i] + 1e-8 * up[i];
    }
}

using test::max_abs;

TEST_P(SemCellSchedule, ScheduledProductAndFusedStepEqualTheCpuStepper) {
    const WaveProblem prob = cell_problem(GetParam());
    const SemMesh mesh = sem_mesh(prob.grid, prob.order);
    const std::size_t nn = mesh.node_count();
    std::vector<double> u0, up0;
    random_state(3 * nn, 8, u0, up0);
    const UpdateCoefficients<double> uc = update_coefficients<double>(prob);
    ASSERT_GT(prob.rayleigh.beta, 0);
    const std::int64_t late = std::int64_t(1.0 / prob.dt);  // the sources add nothing at t = 1 s
    for (const auto& [width, planes] : {std::pair{1, 1}, {1, 2}, {3, 3}, {3, 7}, {2, 1}}) {
        SCOPED_TRACE(::testing::Message() << "width " << width << ", planes " << planes);
        SemTimeStepperCpu<double> cpu(prob);
        cpu.set_state(up0, u0);
        // set_state zeroed the void-only nodes: start the emulation from the same state.
        const std::vector<double> u = cpu.displacement(), up = cpu.previous_displacement();
        std::vector<double> f(3 * nn, 0.0), u_next(3 * nn, 0.0);
        cell_schedule_pass(prob, mesh, width, planes, u, up, 0.0, false, uc, f, u_next);
        const std::vector<double> ku = cpu.stiffness_times(u);
        const double scale = max_abs(ku);
        ASSERT_GT(scale, 0);
        for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(f[i], ku[i], 1e-12 * scale) << i;

        cpu.step(late);
        std::fill(f.begin(), f.end(), 7.0);  // the first writer never reads what f held
        cell_schedule_pass(prob, mesh, width, planes, u, up, prob.rayleigh.beta / prob.dt, true, uc, f, u_next);
        const std::vector<double> want = cpu.displacement();
        const double us = max_abs(want);
        ASSERT_GT(us, 0);
        for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(u_next[i], want[i], 1e-12 * us) << i;
    }
}

// The eight colour launches of sem_cell_sweep, emulated. Update: u_next = u+; else f = K u.
template <int P, class Real, bool Update, bool Damped>
void emulated_launches(const WaveProblem& prob, int planes, const std::vector<Real>& u, const std::vector<Real>& up,
                       std::vector<Real>& f, std::vector<Real>& u_next) {
    using namespace sem_cuda;
    constexpr int E = kCellsPerBlock<P>, threads = E * (P + 1) * (P + 1);
    const SemMesh mesh = sem_mesh(prob.grid, P);
    const SemTables<Real> tab = sem_tables<Real>(mesh.gll);
    const GridShape g{prob.grid.n[0], prob.grid.n[1], prob.grid.n[2], mesh.n[0], mesh.n[1], mesh.node_count()};
    const SemCellGrid cg = sem_cell_grid(prob.grid, E, planes);
    const std::vector<unsigned char> solid = sem_cell_solid(prob.grid, cg);
    const SemCellLaunches l = sem_cell_launches(cg, solid);
    std::vector<Real> lambda(256, Real(0)), mu(256, Real(0));
    for (std::size_t m = 0; m < prob.materials.size(); ++m) {
        lambda[m + 1] = Real(prob.materials[m].lame_lambda());
        mu[m + 1] = Real(prob.materials[m].shear_modulus());
    }
    const UpdateCoefficients<Real> c = update_coefficients<Real>(prob);
    // The sponge's per-node factors, or (no sponge) one h for every node as the engine passes it.
    const bool sponge = !prob.boundary.node_damping.empty();
    const UpdateFactors<Real> upd{c.dt2_inv_mass.data(), sponge ? c.inv_one_plus_h.data() : nullptr,
                                  c.one_minus_h.data(), c.inv_one_plus_h.front(), c.one_minus_h.front()};
    const Real b = Real(prob.rayleigh.beta / prob.dt), half_ds = Real(0.5 * prob.grid.spacing);
    // Every block of every colour's launch in order (colour c's blocks are l.begin[c] .. l.begin[c + 1]).
    run_emulated_blocks(threads, l.begin[8], [&](std::size_t cell) {
        const int colour = int(std::upper_bound(l.begin.begin(), l.begin.begin() + 9, cell) - l.begin.begin()) - 1;
        blockIdx.x = unsigned(cell - l.begin[std::size_t(colour)]);
        sem_cell_sweep<P, Real, Update, Damped>(l.cells.data() + l.begin[std::size_t(colour)], solid.data(),
                                                prob.grid.ids.data(), lambda.data(), mu.data(), tab, g, cg, half_ds,
                                                u.data(), up.data(), Real(1) + b, b, f.data(), u_next.data(), upd);
    });
}

// Elements along x of the emulated model: two or more cells a row of kCellsPerBlock<P> elements
// (14, 8, 5) and a shorter last one for p = 2 and 4.
constexpr int kEmulatedRow = 16;

template <int P, class Real>
void kernel_body_equals_cpu_stepper(bool damped_and_sponged, int planes, double tol, bool sponge_only = false) {
    SCOPED_TRACE(::testing::Message() << "planes " << planes << (damped_and_sponged ? ", damped, sponge" : "")
                                      << (sponge_only ? ", sponge" : "") << (sizeof(Real) == 8 ? ", fp64" : ", fp32"));
    const WaveProblem prob = cell_problem(P, damped_and_sponged, kEmulatedRow, sponge_only);
    ASSERT_EQ(prob.boundary.node_damping.empty(), !(damped_and_sponged || sponge_only));
    ASSERT_EQ(prob.rayleigh.beta > 0, damped_and_sponged);
    const std::size_t nn = sem_mesh(prob.grid, P).node_count();
    std::vector<double> u0, up0;
    random_state(3 * nn, 13, u0, up0);
    SemTimeStepperCpu<Real> cpu(prob);
    cpu.set_state(up0, u0);
    const std::vector<double> ud = cpu.displacement(), upd = cpu.previous_displacement();
    const std::vector<Real> u(ud.begin(), ud.end()), up(upd.begin(), upd.end());
    std::vector<Real> f(3 * nn, Real(0)), u_next(3 * nn, Real(0));
    emulated_launches<P, Real, false, false>(prob, planes, u, up, f, u_next);
    const std::vector<double> ku = cpu.stiffness_times(ud);
    const double ks = max_abs(ku);
    ASSERT_GT(ks, 0);
    for (std::size_t i = 0; i < ku.size(); ++i) ASSERT_NEAR(double(f[i]), ku[i], tol * ks) << i;

    cpu.step(std::int64_t(1.0 / prob.dt));   // the sources add nothing at t = 1 s
    std::fill(f.begin(), f.end(), Real(7));  // the first writer never reads what f held
    if (damped_and_sponged)
        emulated_launches<P, Real, true, true>(prob, planes, u, up, f, u_next);
    else
        emulated_launches<P, Real, true, false>(prob, planes, u, up, f, u_next);
    const std::vector<double> want = cpu.displacement();
    const double us = max_abs(want);
    ASSERT_GT(us, 0);
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(double(u_next[i]), want[i], tol * us) << i;
}

template <int P>
void kernel_body_cases() {
    kernel_body_equals_cpu_stepper<P, double>(true, 1, 1e-12);   // every z face through f
    kernel_body_equals_cpu_stepper<P, double>(true, 3, 1e-12);   // 3 + 3 + 1 planes
    kernel_body_equals_cpu_stepper<P, double>(false, 7, 1e-12);  // one cell a column, uniform h
    kernel_body_equals_cpu_stepper<P, float>(true, 3, 1e-5);
    kernel_body_equals_cpu_stepper<P, float>(false, 7, 1e-5, true);  // undamped, sponge: the load groups' sponge reads
}

TEST_P(SemCellSchedule, CudaKernelBodyOnTheCpuEqualsTheCpuStepper) {
    switch (GetParam()) {
        case 2:
            return kernel_body_cases<2>();
        case 3:
            return kernel_body_cases<3>();
        default:
            return kernel_body_cases<4>();
    }
}

// One box of an emulated distributed CUDA run: its problem (the ghost element, the ghost plane
// held), its exchange and sem_stepper_cuda.cu's three state buffers and force buffer.
struct EmulatedBox {
    SubdomainProblem sub;
    HaloPlan plan;
    std::vector<double> u, up, un, f;
    std::array<double*, 3> components(std::vector<double>& v) const {
        const std::size_t n = plan.node_count();
        return {v.data(), v.data() + n, v.data() + 2 * n};
    }
};

// The ghost exchange among the boxes as the ranks run it: phase by phase, every box packs its send
// boxes of u (pack_box), then every box unpacks what its neighbour sent it into its ghost plane.
void emulated_exchange(std::vector<EmulatedBox>& boxes) {
    for (std::size_t phase = 0; phase < boxes.front().plan.phases.size(); ++phase) {
        std::vector<std::vector<std::vector<double>>> sent(boxes.size());
        for (std::size_t r = 0; r < boxes.size(); ++r)
            for (const HaloTransfer& t : boxes[r].plan.phases[phase].transfers) {
                std::vector<double>& buf = sent[r].emplace_back(3 * t.send.count());
                pack_box(boxes[r].components(boxes[r].u), boxes[r].plan.nodes, t.send, buf.data());
            }
        for (std::size_t r = 0; r < boxes.size(); ++r)
            for (const HaloTransfer& t : boxes[r].plan.phases[phase].transfers) {
                const std::vector<HaloTransfer>& back = boxes[std::size_t(t.neighbour)].plan.phases[phase].transfers;
                const auto from = std::find_if(back.begin(), back.end(),
                                               [&](const HaloTransfer& x) { return x.neighbour == int(r); });
                ASSERT_NE(from, back.end());
                unpack_box(sent[std::size_t(t.neighbour)][std::size_t(from - back.begin())].data(), boxes[r].plan.nodes,
                           t.recv, boxes[r].components(boxes[r].u));
            }
    }
}

// A distributed sem run on CUDA, emulated: the model's boxes (`grid`) each run the kernel body's
// eight colour launches on their own problem with sem_stepper_cuda.cu's rotation of the three
// state buffers, then the ghost exchange; after three steps every node of every box (the owned
// ones, the seams, the ghost element's inner planes and the ghost plane, whose held update the
// exchange overwrites) equals the whole model's CPU stepper from the same random state, damped
// and sponged, with voids at and beside the seams.
template <int P>
void subdomain_steps_equal_the_whole_model(const ProcessGrid& grid) {
    SCOPED_TRACE(to_string(grid));
    const WaveProblem whole = cell_problem(P, true, kEmulatedRow);
    const SemMesh mesh = sem_mesh(whole.grid, P);
    const std::size_t nn = mesh.node_count(), wx = std::size_t(mesh.n[0]), wy = std::size_t(mesh.n[1]);
    std::vector<double> u0, up0;
    random_state(3 * nn, 17, u0, up0);
    SemTimeStepperCpu<double> cpu(whole);
    cpu.set_state(up0, u0);  // held and void-only nodes at rest, as a run reaches them
    std::vector<EmulatedBox> boxes;
    // Each local node of box b with its node of the whole model.
    const auto each_node = [&](const EmulatedBox& b, const auto& f) {
        const std::array<int, 3> n = b.plan.nodes;
        for (int k = 0; k < n[2]; ++k)
            for (int j = 0; j < n[1]; ++j)
                for (int i = 0; i < n[0]; ++i)
                    f(std::size_t(i) + std::size_t(n[0]) * (std::size_t(j) + std::size_t(n[1]) * std::size_t(k)),
                      std::size_t(i + P * b.sub.node_origin[0]) +
                          wx * (std::size_t(j + P * b.sub.node_origin[1]) +
                                wy * std::size_t(k + P * b.sub.node_origin[2])));
    };
    const std::vector<double> gu = cpu.displacement(), gup = cpu.previous_displacement();
    for (const Subdomain& d : partition_boxes(whole.grid, grid)) {
        EmulatedBox& b =
            boxes.emplace_back(EmulatedBox{make_subdomain_problem(whole, d), halo_plan(d, P), {}, {}, {}, {}});
        const std::size_t ln = b.plan.node_count();
        ASSERT_EQ(ln, b.sub.problem.node_count());
        b.u.assign(3 * ln, 0.0);
        b.up.assign(3 * ln, 0.0);
        b.un.assign(3 * ln, 0.0);
        b.f.assign(3 * ln, 0.0);
        each_node(b, [&](std::size_t l, std::size_t g) {
            for (std::size_t c = 0; c < 3; ++c) {
                b.u[c * ln + l] = gu[c * nn + g];
                b.up[c * ln + l] = gup[c * nn + g];
            }
        });
    }
    ASSERT_EQ(boxes.size(), std::size_t(grid.count()));
    const std::int64_t quiet = std::int64_t(1.0 / whole.dt);  // the sources add nothing at t = 1 s
    for (int step = 0; step < 3; ++step) {
        cpu.step(quiet);
        for (EmulatedBox& b : boxes) {
            emulated_launches<P, double, true, true>(b.sub.problem, 2, b.u, b.up, b.f, b.un);
            b.up.swap(b.un);  // u- <- u, u <- u+ (sem_stepper_cuda.cu's step)
            b.u.swap(b.up);
        }
        emulated_exchange(boxes);
    }
    const std::vector<double> want = cpu.displacement(), want_prev = cpu.previous_displacement();
    const double us = max_abs(want);
    ASSERT_GT(us, 0);
    // The largest difference over every node of every box, u and u-, with where it is.
    double worst = 0;
    std::string where;
    for (const EmulatedBox& b : boxes) {
        const std::size_t ln = b.plan.node_count();
        each_node(b, [&](std::size_t l, std::size_t g) {
            for (std::size_t c = 0; c < 3; ++c)
                for (const double d :
                     {std::abs(b.u[c * ln + l] - want[c * nn + g]), std::abs(b.up[c * ln + l] - want_prev[c * nn + g])})
                    if (d > worst) {
                        worst = d;
                        where = "box " + std::to_string(b.sub.sub.index) + " local node " + std::to_string(l);
                    }
        });
    }
    EXPECT_LT(worst, 1e-12 * us) << where;
}

// Slabs (three: the middle one has two seams) and boxes cut along y and z (edges and corners
// through the second phase).
TEST_P(SemCellSchedule, CudaKernelBodyOnExchangingBoxesEqualsTheWholeModel) {
    for (const ProcessGrid& grid : {ProcessGrid{{1, 1, 3}}, ProcessGrid{{1, 2, 2}}}) switch (GetParam()) {
            case 2:
                subdomain_steps_equal_the_whole_model<2>(grid);
                break;
            case 3:
                subdomain_steps_equal_the_whole_model<3>(grid);
                break;
            default:
                subdomain_steps_equal_the_whole_model<4>(grid);
        }
}

// The automatic cell height: against the schedule itself (the largest colour's launch counted by
// sem_cell_launches on a solid grid, waves at the device's slots, a block's set-up a quarter of
// an element plane) and two cases worked by hand: 60^3 elements in cells 5 wide, at 264 slots
// (132 SMs x 2 blocks) L = 3 (1800 blocks, 7 waves: 7 x 3.25 = 22.75 planes; L = 5 takes
// 5 x 5.25 = 26.25, L = 8 3 x 8.25 = 24.75), at 528 slots L = 6 (900 blocks, 2 waves: 12.5; L = 4
// 3 x 4.25 = 12.75, L = 3 4 x 3.25 = 13).
TEST(SemCellPlanes, WholeWavesOfTheLargestColour) {
    VoxelGrid g;
    g.n = {60, 60, 60};
    g.spacing = kDs;
    g.ids.assign(g.element_count(), MaterialId(1));
    EXPECT_EQ(sem_cell_planes_for(g, 5, 264), 3);
    EXPECT_EQ(sem_cell_planes_for(g, 5, 528), 6);
    for (const std::array<int, 3> n : {std::array<int, 3>{60, 60, 60}, {33, 17, 41}, {12, 9, 7}, {200, 3, 90}})
        for (const long long slots : {132LL, 264LL, 528LL, 1000LL}) {
            g.n = n;
            g.ids.assign(g.element_count(), MaterialId(1));
            double best = 0;
            int want = 0;
            for (int planes = 2; planes <= 16; ++planes) {
                const SemCellGrid cg = sem_cell_grid(g, 5, planes);
                const SemCellLaunches l = sem_cell_launches(cg, sem_cell_solid(g, cg));
                std::size_t largest = 0;
                for (int c = 0; c < 8; ++c) largest = std::max(largest, l.begin[c + 1] - l.begin[c]);
                const double waves = std::ceil(double(largest) / double(slots));
                const double t = waves * (planes + 0.25);
                if (want == 0 || t <= best) {
                    best = t;
                    want = planes;
                }
            }
            EXPECT_EQ(sem_cell_planes_for(g, 5, slots), want)
                << n[0] << " x " << n[1] << " x " << n[2] << ", " << slots;
        }
}

INSTANTIATE_TEST_SUITE_P(Orders, SemCellSchedule, ::testing::Values(2, 3, 4),
                         [](const auto& info) { return "p" + std::to_string(info.param); });

}  // namespace
