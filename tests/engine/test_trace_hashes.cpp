// Bit-exact regression of the CPU engine: the paper scene (assets/scenes/paper_rebar.json) at
// 4 mm, run on the CPU backend for VFEM FP64, OVFEM FP64, OVFEM FP32 and TCOVFEM M = 8, its
// receiver traces hashed and compared with recorded constants.
//
// Why: restructuring the engine (the device layer, the run rules, the boundary module, moving
// code between files) must not change a single bit of any trace. The other engine tests check
// physics to a tolerance and would let a reordered sum or a lost FMA through; this one does not.
// A deliberate numerical change (a new operation order, a different formula) must re-record the
// constants below and say so, with the reason, in its commit message.
//
// Where the constants came from: commit 200d46c (the tree before the restructuring of issue 29),
// built with GCC 12.2 (Debian 12), run on an x86-64 CPU with AVX-512 and FMA, with
//   voxwave_engine_tests --gtest_filter='*TraceHashes*'
// (a mismatch prints the hash computed, in the form of the constants):
//   contracted:   cmake --preset release (Release -O3, VOXWAVE_NATIVE_ARCH=ON: -march=native), the
//                 build CI uses (recorded with -DVOXWAVE_ENABLE_CUDA=OFF -DVOXWAVE_ENGINE_ONLY=ON,
//                 which change no CPU engine code).
//   uncontracted: cmake --preset dev (Debug -O0, no -march=native).
//
// What the bits depend on (measured on that tree):
// - Not the thread count: OMP_NUM_THREADS=1, 2 and 3 give the same hashes (each node's sums run
//   in a fixed order whatever thread computes them).
// - The build, through FMA contraction: GCC fuses a * b + c into one multiply-add (its default
//   -ffp-contract=fast) when the target has FMA (__FMA__, e.g. from -march=native) and it
//   optimises (-O2 and above). One rounding instead of two changes the last bits of the forces,
//   and the release and dev builds give different hashes for every case. So each kind of build
//   has its own constants, selected below by those two compile-time properties (the tests and
//   the engine get the same compile options from voxwave_options). A Release build without
//   -march=native (x86-64 has no FMA) is expected to give the uncontracted set, and an FMA CPU
//   without AVX-512 the contracted one (the element kernel's 64-byte vectors then split into
//   narrower ones with the same operations per lane); neither was measured.
// Forbidding contraction in the engine would make one set serve every build, but it would
// change the release build's bits, which is what this test guards.
// The CPU's tuning as well, for VFEM: on an AMD EPYC with AVX-512, where GCC 12's -march=native is
// znver3 (its tuning and cost model), the contracted VFEM FP64 traces differ from the set above
// (the other three cases do not). Its constant, `contracted_znver3` below, was recorded there
// (GCC 12.2, Release -O3 -march=native) on commit 66b64f9, whose CPU engine gives the constants
// above on the machine they were recorded on.
//
// The hash: 64-bit FNV-1a over the IEEE-754 bit patterns of every value the run returns (the
// sample times, then the displacements, then the velocities, in Result's order: receiver,
// sample, component), each value's 8 bytes least significant first so the hash does not depend
// on the host's byte order. FP32 runs return their floats widened to double, which is exact.
//
// The run: the scene as it is but for the spacing (4 mm: 81 x 32 x 96 elements) and the step,
// 0.9 of the stable limit (4.39e-7 s) instead of the scene's 5e-8 s, so that the waves travel
// far in few steps. VFEM and OVFEM run 1000 steps (439 us: past the wavelet's centre at 410 us,
// so the traces hold the main pulse at the near receivers and the onset's echoes from the rebar
// and the bottom face). TCOVFEM's exact CPU emulation of the INT8 product costs 50 to 60 VFEM steps
// a step, so it runs 40 (17.6 us: the P wave's onset passes R3-R6). The test asserts that every
// receiver the P wave can have reached moved in every component, so the hashes cover the
// stiffness products and the update, not zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "scene/scene_io.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {
namespace {

// Which set of recorded constants this build must reproduce (see the comment above).
#if defined(__FMA__) && defined(__OPTIMIZE__)
#if defined(__GNUC__) && !defined(__clang__)
constexpr bool kHashesRecorded = true;
constexpr const char* kBuildKind = "contracted (GCC, FMA, optimised)";
#else
// Clang contracts only within one expression (-ffp-contract=on), so neither set applies.
constexpr bool kHashesRecorded = false;
constexpr const char* kBuildKind = "contracted by a compiler other than GCC";
#endif
constexpr bool kContracted = true;
#if defined(__znver3__)
constexpr bool kZnver3 = true;
#else
constexpr bool kZnver3 = false;
#endif
#else
constexpr bool kZnver3 = false;
constexpr bool kHashesRecorded = true;
constexpr bool kContracted = false;
constexpr const char* kBuildKind = "uncontracted (no FMA or not optimised)";
#endif

struct TraceCase {
    const char* name;
    Method method;
    Precision precision;
    std::int64_t steps;
    std::uint64_t contracted;             // GCC, FMA, optimised: recorded with the release preset (CI)
    std::uint64_t uncontracted;           // no FMA or not optimised: recorded with the dev preset
    std::uint64_t contracted_znver3 = 0;  // contracted with GCC's znver3 target (0: the contracted one)
};

const TraceCase kCases[] = {
    {"VfemFp64", Method::Vfem, Precision::Fp64, 1000, 0xd3553b5a3629da01ull, 0x45ecc39426019483ull,
     0xfa581b33eb098bb6ull},
    {"OvfemFp64", Method::Ovfem, Precision::Fp64, 1000, 0xf5359664a17ae8b3ull, 0xf61736be18ef2610ull},
    {"OvfemFp32", Method::Ovfem, Precision::Fp32, 1000, 0x06e30dd9fac7a4e6ull, 0x03eed30083259976ull},
    {"TcovfemM8", Method::Tcovfem, Precision::Fp64, 40, 0x6f93c603d0f54578ull, 0xa0b117379ea5a3bdull},
};

// Test names and failure messages show the case's name, not its bytes.
void PrintTo(const TraceCase& c, std::ostream* os) { *os << c.name; }

// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
struct Fnv1a64 {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void add_byte(std::uint8_t byte) {
        h ^= byte;
        h *= 0x100000001b3ull;
    }
    void add(double v) {
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
        for (int b = 0; b < 8; ++b) add_byte(std::uint8_t(bits >> (8 * b)));
    }
};

std::string hex(std::uint64_t h) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, h);
    return buf;
}

class TraceHashes : public ::testing::TestWithParam<TraceCase> {};

TEST(TraceHashesSelf, Fnv1aMatchesPublishedVectorsAndTakesBytesLeastSignificantFirst) {
    // Test vectors of the FNV reference (Fowler, Noll, Vo): "", "a", "foobar".
    auto of = [](const std::string& text) {
        Fnv1a64 f;
        for (char ch : text) f.add_byte(std::uint8_t(ch));
        return f.h;
    };
    EXPECT_EQ(of(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(of("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(of("foobar"), 0x85944171f73967e8ull);
    // 1.0 is 0x3ff0000000000000: six zero bytes, then 0xf0, then 0x3f.
    Fnv1a64 one;
    one.add(1.0);
    EXPECT_EQ(one.h, of(std::string("\0\0\0\0\0\0\xf0\x3f", 8)));
    // One flipped bit changes the hash.
    Fnv1a64 next;
    next.add(std::nextafter(1.0, 2.0));
    EXPECT_NE(one.h, next.h);
}

TEST_P(TraceHashes, PaperSceneAt4mmOnTheCpuIsBitIdentical) {
    const TraceCase& c = GetParam();
    Scene s = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/paper_rebar.json");
    s.grid.spacing = 0.004;
    s.run.dt = 0;  // 0.9 of the stable limit
    s.run.method = c.method;
    s.run.precision = c.precision;
    s.run.stages = 8;
    s.run.steps = c.steps;
    s.run.backend = Backend::Cpu;
    const WaveProblem p = build_wave_problem(s, "paper_rebar");
    ASSERT_EQ(p.dt, 0.9 * p.dt_stable);
    ASSERT_EQ(p.grid.n[0], 81);
    ASSERT_EQ(p.grid.n[1], 32);
    ASSERT_EQ(p.grid.n[2], 96);

    const Result r = run_wave(p, {});
    EXPECT_EQ(r.backend, "cpu");
    EXPECT_EQ(r.method, to_string(c.method));
    EXPECT_EQ(r.precision, to_string(c.precision));
    ASSERT_EQ(r.receiver_count(), 8u);
    ASSERT_EQ(r.sample_count(), std::size_t(c.steps));
    ASSERT_EQ(r.displacement.size(), 8u * std::size_t(c.steps) * 3u);
    ASSERT_EQ(r.velocity.size(), r.displacement.size());

    // The hash covers real arithmetic: every receiver the P wave in concrete can have reached
    // by the last sample moved in every component (the wavelet's Hann-windowed onset is small
    // but not zero from the first step on), and there are at least two of them.
    const double vp = p.materials[0].vp;
    ASSERT_EQ(p.materials[0].name, "concrete");
    const double reach = vp * r.time.back();
    int reached = 0;
    for (std::size_t rec = 0; rec < r.receiver_count(); ++rec) {
        const auto& x = r.receiver_positions[rec];
        const Vec3& src = p.sources.at(0).snapped;
        if (std::hypot(x[0] - src[0], x[1] - src[1], x[2] - src[2]) >= reach) continue;
        ++reached;
        for (int comp = 0; comp < 3; ++comp) {
            double peak = 0;
            for (std::size_t t = 0; t < r.sample_count(); ++t) peak = std::max(peak, std::abs(r.u(rec, t, comp)));
            EXPECT_GT(peak, 0.0) << r.receiver_names[rec] << " component " << comp;
        }
    }
    EXPECT_GE(reached, 2) << "the wave reaches " << reach << " m";

    Fnv1a64 h;
    for (double v : r.time) h.add(v);
    for (double v : r.displacement) h.add(v);
    for (double v : r.velocity) h.add(v);
    const std::uint64_t want =
        !kContracted ? c.uncontracted : (kZnver3 && c.contracted_znver3 != 0 ? c.contracted_znver3 : c.contracted);
    if (!kHashesRecorded) GTEST_SKIP() << "no hashes recorded for this build: " << kBuildKind;
    EXPECT_EQ(hex(h.h), hex(want)) << c.name << ", " << kBuildKind << " build: the traces changed. If the change is "
                                   << "deliberate, re-record the constants (see the top of this file).";
}

INSTANTIATE_TEST_SUITE_P(PaperRebar, TraceHashes, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<TraceCase>& tc) { return std::string(tc.param.name); });

}  // namespace
}  // namespace voxwave
