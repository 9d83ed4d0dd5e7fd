#include "distributed/distributed_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

#include "core/backend.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "wave/probe_recording.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {

int device_for_local_rank(int local_rank, int device_count) {
    return device_count > 0 ? local_rank % device_count : -1;
}

namespace {

int exit_code_of(const std::exception& e) {
    if (dynamic_cast<const InputError*>(&e)) return 1;
    if (dynamic_cast<const Cancelled*>(&e)) return 130;
    return 3;
}

}  // namespace

ProcessGrid resolve_process_grid(const VoxelGrid& grid, int ranks, const ProcessGrid& asked, const std::string& field) {
    const AxisTurn turn = longest_axis_last(grid);
    VoxelGrid shape;  // the turned extents only: the choice and the checks look at nothing else
    for (std::size_t a = 0; a < 3; ++a) shape.n[a] = grid.n[std::size_t(turn.from[a])];
    if (asked.automatic()) return choose_process_grid(shape, ranks);
    check_process_grid(grid, asked, ranks, field);
    ProcessGrid g;
    for (std::size_t a = 0; a < 3; ++a) g.ranks[a] = asked.ranks[std::size_t(turn.from[a])];
    return g;
}

SubdomainSetup prepare_subdomain(const WaveProblem& original, const MpiWorld& world,
                                 const DistributedOptions& options) {
    SubdomainSetup s;
    s.grid = resolve_process_grid(original.grid, world.size(), options.grid, options.grid_field);
    s.turn = longest_axis_last(original.grid);
    if (!s.turn.identity()) s.turned = std::make_unique<WaveProblem>(turn_axes(original, s.turn));
    const WaveProblem& whole = s.turned ? *s.turned : original;
    s.subdomains = partition_boxes(whole.grid, s.grid);
    const Subdomain& mine = s.subdomains[std::size_t(world.rank())];
    assert_run_rules(whole);
    s.backend = resolve_backend(whole.backend, s.backend_note);
    if (!world.all(s.backend == Backend::Cuda) && !world.all(s.backend == Backend::Cpu))
        throw InputError("", "backend", "some ranks have a CUDA device and others do not; pass --backend cpu or cuda");
    s.mine = make_subdomain_problem(whole, mine);
    HaloPlan plan = halo_plan(mine, whole.node_planes_per_element());
    if (s.backend == Backend::Cpu) {
        s.exchange = std::make_unique<MpiHaloExchange>(world, std::move(plan));
        return s;
    }
    std::string why;
    s.device = device_for_local_rank(world.local_rank(), int(cuda_devices(&why).size()));
    s.transport = options.halo == HaloTransport::Auto ? (nccl_built() ? HaloTransport::Nccl : HaloTransport::HostStaged)
                                                      : options.halo;
    if (s.transport == HaloTransport::Nccl)
        s.exchange = make_nccl_halo_exchange(world, std::move(plan), s.device);
    else
        s.exchange = std::make_unique<MpiHaloExchange>(world, std::move(plan));
    return s;
}

DistributedRun run_wave_distributed(const WaveProblem& whole, const MpiWorld& world, const ProgressFn& progress,
                                    const DistributedOptions& options) {
    DistributedRun out;
    // Too many ranks or a process grid that does not fit: an InputError on every rank, before
    // anything collective can hang.
    check_slab_count(slab_axis_planes(whole.grid), world.size());
    out.grid = options.grid;
    if (out.grid.automatic()) {
        // Back in the problem's axes for the note and the caller.
        const ProcessGrid turned = resolve_process_grid(whole.grid, world.size(), options.grid, options.grid_field);
        const AxisTurn turn = longest_axis_last(whole.grid);
        for (std::size_t a = 0; a < 3; ++a) out.grid.ranks[std::size_t(turn.from[a])] = turned.ranks[a];
    } else {
        resolve_process_grid(whole.grid, world.size(), options.grid, options.grid_field);
    }
    SubdomainSetup setup;
    try {
        setup = prepare_subdomain(whole, world, options);
    } catch (const std::exception& e) {
        world.abort(
            "voxwave: rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + ": " + e.what(),
            exit_code_of(e));
    }
    out.subdomains = setup.subdomains;
    const SubdomainProblem& slab = setup.mine;
    SlabHooks hooks;
    hooks.cuda_device = setup.device;
    hooks.exchange = setup.exchange.get();
    hooks.overlap_exchange = options.overlap;

    Result local;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        world.barrier();
        // Fault injection for the tests of the job-wide stop: this rank fails as the run starts,
        // while the others are already waiting for its forces.
        if (const char* f = std::getenv("VOXWAVE_TEST_FAIL_RANK"); f && std::atoi(f) == world.rank())
            throw RuntimeError("injected failure (VOXWAVE_TEST_FAIL_RANK)");
        local = run_wave(slab.problem, world.rank() == 0 ? progress : ProgressFn{}, nullptr, hooks);
    } catch (const std::exception& e) {
        world.abort(
            "voxwave: rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + ": " + e.what(),
            exit_code_of(e));
    }
    const double wall = world.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());

    // Gather: each rank's receivers as [local receiver][displacement nt*3 | velocity nt*3].
    const std::size_t nt = std::size_t(whole.steps), per = 6 * nt;
    std::vector<double> block(slab.receiver_of.size() * per);
    for (std::size_t i = 0; i < slab.receiver_of.size(); ++i) {
        std::copy_n(local.displacement.begin() + std::ptrdiff_t(i * nt * 3), nt * 3,
                    block.begin() + std::ptrdiff_t(i * per));
        std::copy_n(local.velocity.begin() + std::ptrdiff_t(i * nt * 3), nt * 3,
                    block.begin() + std::ptrdiff_t(i * per + nt * 3));
    }
    std::vector<long long> which(slab.receiver_of.begin(), slab.receiver_of.end());
    const std::vector<double> all_blocks = world.gather(block);
    const std::vector<long long> all_which = world.gather(which);

    // Snapshots: each rank's owned points of each snapshot, put in the whole grid's order on rank 0.
    const std::vector<long long> all_points =
        world.gather(std::vector<long long>(slab.snapshot_point_of.begin(), slab.snapshot_point_of.end()));
    auto gather_snapshots = [&](const std::vector<std::vector<double>>& mine, std::vector<std::vector<double>>& all) {
        for (const std::vector<double>& values : mine) {
            const std::vector<double> gathered = world.gather(values);
            if (world.rank() != 0) continue;
            if (gathered.size() != 3 * whole.snapshot_nodes.size() || all_points.size() != whole.snapshot_nodes.size())
                throw RuntimeError("distributed run: " + std::to_string(all_points.size()) +
                                   " snapshot points gathered, " + std::to_string(whole.snapshot_nodes.size()) +
                                   " expected");
            std::vector<double>& v = all.emplace_back(gathered.size());
            for (std::size_t i = 0; i < all_points.size(); ++i)
                std::copy_n(gathered.begin() + std::ptrdiff_t(3 * i), 3,
                            v.begin() + std::ptrdiff_t(3 * std::size_t(all_points[i])));
        }
    };

    Result& r = out.result;
    r.snapshots = whole.snapshots;
    gather_snapshots(local.snapshots.u, r.snapshots.u);
    gather_snapshots(local.snapshots.v, r.snapshots.v);
    r.method = to_string(whole.method);
    r.precision = to_string(whole.precision);
    r.backend = to_string(setup.backend);
    r.stages = whole.stages;
    r.spacing = whole.grid.spacing;
    r.dt = whole.dt;
    r.steps = whole.steps;
    r.wall_seconds = wall;
    for (const auto& rec : whole.receivers) {
        r.receiver_names.push_back(rec.name);
        r.receiver_positions.push_back(rec.snapped);
    }
    if (world.rank() == 0) {
        if (all_which.size() != whole.receivers.size())
            throw RuntimeError("distributed run: " + std::to_string(all_which.size()) + " receivers gathered, " +
                               std::to_string(whole.receivers.size()) + " expected");
        r.time = local.time;
        r.displacement.assign(whole.receivers.size() * nt * 3, 0.0);
        r.velocity.assign(whole.receivers.size() * nt * 3, 0.0);
        for (std::size_t i = 0; i < all_which.size(); ++i) {
            const std::size_t g = std::size_t(all_which[i]);
            std::copy_n(all_blocks.begin() + std::ptrdiff_t(i * per), nt * 3,
                        r.displacement.begin() + std::ptrdiff_t(g * nt * 3));
            std::copy_n(all_blocks.begin() + std::ptrdiff_t(i * per + nt * 3), nt * 3,
                        r.velocity.begin() + std::ptrdiff_t(g * nt * 3));
        }
        turn_result_back(r, setup.turn, whole);
        record_probes(whole, r);
    }
    std::ostringstream note;
    note << setup.backend_note << "\n"
         << "distributed: " << world.size() << " ranks, process grid " << to_string(out.grid)
         << " (ranks along x, y, z), boxes of whole element planes with one ghost element layer per neighbour"
         << (setup.turn.identity() ? "" : " (the model is turned so that its longest axis is cut first)") << ":";
    for (const Subdomain& d : out.subdomains) {
        note << " [";
        for (std::size_t a = 0; a < 3; ++a) {
            const std::size_t axis = std::size_t(setup.turn.from[a]);
            note << (a ? " " : "") << "xyz"[axis] << " " << d.e0[a] << ".." << d.e1[a];
        }
        note << "]";
    }
    const bool fp64 = whole.precision == Precision::Fp64;
    note << "\nhalo: " << (setup.backend == Backend::Cuda ? to_string(setup.transport) : "MPI (host memory)")
         << ", ghost displacements, " << setup.exchange->bytes_per_step(fp64) << " bytes per step out of rank 0";
    out.note = note.str();
    return out;
}

SliceImage gather_slice(const MpiWorld& world, const SubdomainSetup& setup, const VoxelGrid& whole,
                        const std::vector<double>& u, const std::vector<double>& u_prev, double dt, SlicePlane plane,
                        int index, SliceQuantity quantity) {
    const std::array<int, 3> n1{whole.n[0] + 1, whole.n[1] + 1, whole.n[2] + 1};
    const int normal = plane == SlicePlane::XY ? 2 : plane == SlicePlane::XZ ? 1 : 0;
    if (index < 0 || index >= n1[std::size_t(normal)])
        throw InputError("", "slice", "node plane " + std::to_string(index) + " is outside the model");
    const int wa = plane == SlicePlane::YZ ? 1 : 0, hb = plane == SlicePlane::XY ? 1 : 2;  // the image's axes
    const int width = n1[std::size_t(wa)], height = n1[std::size_t(hb)];
    const Subdomain& d = setup.mine.sub;
    const VoxelGrid& local = setup.mine.problem.grid;
    // The slice shows the voxel corners; sem's states are on its GLL grid, P node planes per element.
    const int P = setup.mine.problem.node_planes_per_element();
    const std::size_t nn = setup.mine.problem.node_count(), lx = std::size_t(P * local.n[0] + 1),
                      ly = std::size_t(P * local.n[1] + 1);
    const std::array<int, 3> g0 = d.g0();
    std::array<int, 3> turned_n{};  // the turned model's elements along each axis
    for (std::size_t a = 0; a < 3; ++a) turned_n[a] = whole.n[std::size_t(setup.turn.from[a])];
    // The turned component that carries original component c.
    std::array<int, 3> component_of{};
    for (int a = 0; a < 3; ++a) component_of[std::size_t(setup.turn.from[std::size_t(a)])] = a;
    SliceQuantity q = quantity;
    if (quantity == SliceQuantity::Ux || quantity == SliceQuantity::Uy || quantity == SliceQuantity::Uz)
        q = SliceQuantity(component_of[std::size_t(int(quantity) - int(SliceQuantity::Ux))]);
    const double* uc[3] = {u.data(), u.data() + nn, u.data() + 2 * nn};
    const double* pc[3] = {u_prev.data(), u_prev.data() + nn, u_prev.data() + 2 * nn};
    std::vector<long long> pixels;
    std::vector<double> values;
    for (int b = 0; b < height; ++b)
        for (int a = 0; a < width; ++a) {
            std::array<int, 3> o{};
            o[std::size_t(normal)] = index;
            o[std::size_t(wa)] = a;
            o[std::size_t(hb)] = b;
            bool owned = true;
            std::array<int, 3> t{};
            for (std::size_t x = 0; x < 3; ++x) {
                t[x] = o[std::size_t(setup.turn.from[x])];
                owned = owned && ((t[x] >= d.e0[x] && t[x] < d.e1[x]) || (t[x] == turned_n[x] && d.e1[x] == t[x]));
            }
            if (!owned) continue;
            const std::size_t node = std::size_t(P * (t[0] - g0[0])) +
                                     lx * (std::size_t(P * (t[1] - g0[1])) + ly * std::size_t(P * (t[2] - g0[2])));
            pixels.push_back(static_cast<long long>(a) + static_cast<long long>(width) * b);
            values.push_back(slice_value(q, uc, pc, node, 1.0 / dt));
        }
    const std::vector<long long> all_pixels = world.gather(pixels);
    const std::vector<double> all_values = world.gather(values);
    SliceImage image;
    if (world.rank() != 0) return image;
    image.width = width;
    image.height = height;
    image.values.assign(std::size_t(width) * std::size_t(height), 0.0f);
    if (all_pixels.size() != image.values.size())
        throw RuntimeError("gather_slice: " + std::to_string(all_pixels.size()) + " pixels gathered, " +
                           std::to_string(image.values.size()) + " expected");
    for (std::size_t i = 0; i < all_pixels.size(); ++i) image.values[std::size_t(all_pixels[i])] = float(all_values[i]);
    return image;
}

}  // namespace voxwave
