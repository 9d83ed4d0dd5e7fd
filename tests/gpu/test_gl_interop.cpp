// CUDA-OpenGL interop without Qt: a headless EGL context on the NVIDIA driver, a GL buffer
// registered with CUDA, the CUDA engine writing a wavefield slice into it on the GPU (directly,
// or through a DeviceSliceStaging filled by another thread, as in the GUI); read back through GL
// and compared with the CPU engine's slice of the same run.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/device.hpp"
#include "require_cuda.hpp"
#include "scene_builders.hpp"
#include "wave/slice_gl_interop.hpp"
#include "wave/slice_staging.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/wave_session.hpp"

#if __has_include(<EGL/egl.h>) && __has_include(<EGL/eglext.h>) && __has_include(<GL/gl.h>)
#define VOXWAVE_TEST_HAVE_EGL_HEADERS 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#else
#define VOXWAVE_TEST_HAVE_EGL_HEADERS 0
#endif

using namespace voxwave;

#if VOXWAVE_TEST_HAVE_EGL_HEADERS
namespace {

// libEGL is opened at run time: the test binary starts (and skips) where there is none.
struct Egl {
    void* lib = nullptr;
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    EGLSurface surface = EGL_NO_SURFACE;
    PFNEGLGETPROCADDRESSPROC getProc = nullptr;
    std::string error;

    template <class F>
    F fn(const char* name) {
        void* p = lib ? dlsym(lib, name) : nullptr;
        if (!p && getProc) p = reinterpret_cast<void*>(getProc(name));
        return reinterpret_cast<F>(p);
    }

    bool open() {
        lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return (error = "libEGL.so.1 not found"), false;
        getProc = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(lib, "eglGetProcAddress"));
        auto queryDevices = fn<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
        auto platformDisplay = fn<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
        auto initialize = fn<PFNEGLINITIALIZEPROC>("eglInitialize");
        auto chooseConfig = fn<PFNEGLCHOOSECONFIGPROC>("eglChooseConfig");
        auto bindApi = fn<PFNEGLBINDAPIPROC>("eglBindAPI");
        auto createContext = fn<PFNEGLCREATECONTEXTPROC>("eglCreateContext");
        auto createPbuffer = fn<PFNEGLCREATEPBUFFERSURFACEPROC>("eglCreatePbufferSurface");
        auto makeCurrent = fn<PFNEGLMAKECURRENTPROC>("eglMakeCurrent");
        if (!queryDevices || !platformDisplay || !initialize || !chooseConfig || !bindApi || !createContext ||
            !createPbuffer || !makeCurrent)
            return (error = "EGL device-platform functions missing"), false;
        // Headless: the first EGL device (the GPU), no X server.
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (!queryDevices(8, devices, &n) || n < 1) return (error = "no EGL device"), false;
        display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
        EGLint major = 0, minor = 0;
        if (display == EGL_NO_DISPLAY || !initialize(display, &major, &minor))
            return (error = "eglInitialize failed"), false;
        const EGLint attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLConfig config;
        EGLint count = 0;
        if (!chooseConfig(display, attrs, &config, 1, &count) || count < 1) return (error = "no EGL config"), false;
        const EGLint pb[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        surface = createPbuffer(display, config, pb);
        if (!bindApi(EGL_OPENGL_API)) return (error = "eglBindAPI(OpenGL) failed"), false;
        context = createContext(display, config, EGL_NO_CONTEXT, nullptr);
        if (context == EGL_NO_CONTEXT || !makeCurrent(display, surface, surface, context))
            return (error = "no current OpenGL context"), false;
        return true;
    }
    ~Egl() {
        if (display != EGL_NO_DISPLAY) {
            if (auto term = fn<PFNEGLTERMINATEPROC>("eglTerminate")) term(display);
        }
    }
};

using GenBuffers = void (*)(GLsizei, GLuint*);
using BindBuffer = void (*)(GLenum, GLuint);
using BufferData = void (*)(GLenum, std::ptrdiff_t, const void*, GLenum);
using GetBufferSubData = void (*)(GLenum, std::ptrdiff_t, std::ptrdiff_t, void*);
using DeleteBuffers = void (*)(GLsizei, const GLuint*);
using GetError = GLenum (*)();
constexpr GLenum kArrayBuffer = 0x8892;  // GL_ARRAY_BUFFER
constexpr GLenum kDynamicDraw = 0x88E8;  // GL_DYNAMIC_DRAW

// The buffer calls both tests make, loaded through EGL.
struct GlBufferCalls {
    GenBuffers genBuffers;
    BindBuffer bindBuffer;
    BufferData bufferData;
    GetBufferSubData getSubData;
    DeleteBuffers deleteBuffers;
    GetError getError;
    explicit GlBufferCalls(Egl& egl)
        : genBuffers(egl.fn<GenBuffers>("glGenBuffers")),
          bindBuffer(egl.fn<BindBuffer>("glBindBuffer")),
          bufferData(egl.fn<BufferData>("glBufferData")),
          getSubData(egl.fn<GetBufferSubData>("glGetBufferSubData")),
          deleteBuffers(egl.fn<DeleteBuffers>("glDeleteBuffers")),
          getError(egl.fn<GetError>("glGetError")) {}
    bool complete() const { return genBuffers && bindBuffer && bufferData && getSubData && deleteBuffers && getError; }
};

// Rebar-like inclusion in concrete at a coarse spacing; the same run on both engines.
Scene rebar_block_scene(int steps) {
    Scene s = voxwave::testing::block_scene(16, 10, 12, 0.004);
    s.materials.push_back(voxwave::testing::steel());
    s.shapes.push_back(Shape{"steel", CylinderShape{{0.032, 0.02, 0.02}, {0, 1, 0}, 0.008, 0.04}});
    s.sources.push_back({"S", {0.03, 0.02, 0.048}, {0.3, 0.1, 1.0}, 1.0, voxwave::testing::ricker(60e3, 2e-5)});
    s.run.steps = steps;
    return s;
}
}  // namespace
#endif

TEST(GlInterop, CudaSliceWrittenIntoAGlBufferEqualsTheCpuSlice) {
    REQUIRE_CUDA();
    if (!gl_interop_built()) GTEST_SKIP() << "this build has no CUDA-OpenGL interop";
#if !VOXWAVE_TEST_HAVE_EGL_HEADERS
    GTEST_SKIP() << "built without the EGL headers";
#else
    Egl egl;
    if (!egl.open()) GTEST_SKIP() << "" << egl.error;
    const GlBufferCalls gl(egl);
    ASSERT_TRUE(gl.complete());
    const auto& [genBuffers, bindBuffer, bufferData, getSubData, deleteBuffers, getError] = gl;

    Scene s = rebar_block_scene(150);
    s.run.backend = Backend::Cpu;
    const WaveProblem cpu_p = build_wave_problem(s, "test");
    s.run.backend = Backend::Cuda;
    const WaveProblem gpu_p = build_wave_problem(s, "test");
    WaveSession cpu(cpu_p), gpu(gpu_p);
    ASSERT_EQ(gpu.backend(), Backend::Cuda);
    cpu.advance(150);
    gpu.advance(150);

    for (SlicePlane plane : {SlicePlane::XY, SlicePlane::XZ, SlicePlane::YZ})
        for (SliceQuantity q : {SliceQuantity::Uz, SliceQuantity::Ux, SliceQuantity::VelocityMagnitude}) {
            const auto e = slice_extent(cpu_p.grid, plane);
            const int index = e[2] / 2;
            const SliceImage want = cpu.slice(plane, index, q);
            GLuint buf = 0;
            genBuffers(1, &buf);
            bindBuffer(kArrayBuffer, buf);
            bufferData(kArrayBuffer, std::ptrdiff_t(want.values.size() * sizeof(float)), nullptr, kDynamicDraw);
            ASSERT_EQ(getError(), GLenum(GL_NO_ERROR));
            {
                GlSliceBuffer target(buf);
                target.write(gpu, plane, index, q);
            }
            std::vector<float> got(want.values.size(), -1.0f);
            bindBuffer(kArrayBuffer, buf);
            getSubData(kArrayBuffer, 0, std::ptrdiff_t(got.size() * sizeof(float)), got.data());
            ASSERT_EQ(getError(), GLenum(GL_NO_ERROR));
            deleteBuffers(1, &buf);
            // The FP64 engines agree to ~1e-12 relative; the slice is rounded to float once.
            const float peak = want.max_abs();
            ASSERT_GT(peak, 0.0f);
            for (std::size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], want.values[i], 1e-6f * peak)
                    << "plane " << int(plane) << " quantity " << int(q) << " pixel " << i;
        }
#endif
}

// The GUI's path across threads: a worker steps a CUDA session and snapshots slices into a
// DeviceSliceStaging while this thread (EGL context current) copies the latest snapshot into a
// registered GL buffer, reads it back through GL and keeps it with its step. Afterwards each kept
// slice must equal the CPU engine's at that step, and the device max |value| and level the CPU
// slice's: a slot overwritten during a copy would mix two steps.
TEST(GlInterop, StagedSlicesCopiedOnAnotherThreadEqualTheCpuSlices) {
    REQUIRE_CUDA();
    if (!gl_interop_built()) GTEST_SKIP() << "this build has no CUDA-OpenGL interop";
#if !VOXWAVE_TEST_HAVE_EGL_HEADERS
    GTEST_SKIP() << "built without the EGL headers";
#else
    Egl egl;
    if (!egl.open()) GTEST_SKIP() << "" << egl.error;
    std::string why;
    const std::vector<int> gl_devices = gl_interop_devices(&why);
    ASSERT_FALSE(gl_devices.empty()) << why;
    const GlBufferCalls gl(egl);
    ASSERT_TRUE(gl.complete());
    const auto& [genBuffers, bindBuffer, bufferData, getSubData, deleteBuffers, getError] = gl;

    Scene s = rebar_block_scene(600);  // the worker advances 400 steps; a run needs a duration
    s.run.backend = Backend::Cpu;
    const WaveProblem cpu_p = build_wave_problem(s, "test");
    s.run.backend = Backend::Cuda;
    const WaveProblem gpu_p = build_wave_problem(s, "test");
    const SlicePlane plane = SlicePlane::XZ;
    const SliceQuantity q = SliceQuantity::Uz;
    const auto e = slice_extent(cpu_p.grid, plane);
    const int index = e[2] / 2;
    const std::size_t n = std::size_t(e[0]) * e[1];

    // The worker owns the CUDA session and the staging, as the GUI's controller does.
    std::shared_ptr<DeviceSliceStaging> staging;
    std::mutex m;
    std::condition_variable cv;
    bool ready = false;
    std::atomic<bool> done{false};
    std::string worker_error;
    std::thread worker([&] {
        try {
            WaveSession gpu(gpu_p);
            if (gpu.backend() != Backend::Cuda) throw std::runtime_error("the session did not take the CUDA backend");
            auto st = std::make_shared<DeviceSliceStaging>();
            gpu.advance(100);
            st->snapshot(gpu, plane, index, q);
            {
                std::lock_guard lock(m);
                staging = st;
                ready = true;
            }
            cv.notify_all();
            // Keeps stepping and publishing while the main thread copies.
            for (int k = 0; k < 150; ++k) {
                gpu.advance(1 + k % 3);
                st->snapshot(gpu, plane, index, q);
            }
        } catch (const std::exception& ex) {
            std::lock_guard lock(m);
            worker_error = ex.what();
            ready = true;
            cv.notify_all();
        }
        done = true;
    });
    {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return ready; });
    }
    if (!staging) {
        worker.join();
        FAIL() << worker_error;
    }

    GLuint buf = 0;
    genBuffers(1, &buf);
    bindBuffer(kArrayBuffer, buf);
    bufferData(kArrayBuffer, std::ptrdiff_t(n * sizeof(float)), nullptr, kDynamicDraw);
    ASSERT_EQ(getError(), GLenum(GL_NO_ERROR));
    struct Kept {
        StagedSliceInfo info;
        std::vector<float> values;
    };
    std::vector<Kept> kept;
    {
        GlSliceBuffer target(buf, staging->device());
        std::uint64_t last_sequence = 0;
        while (!done || staging->has_new()) {
            Kept k;
            if (!target.copy_from(*staging, &k.info)) {
                std::this_thread::yield();
                continue;
            }
            EXPECT_GT(k.info.sequence, last_sequence);
            last_sequence = k.info.sequence;
            k.values.assign(n, -1.0f);
            bindBuffer(kArrayBuffer, buf);
            getSubData(kArrayBuffer, 0, std::ptrdiff_t(n * sizeof(float)), k.values.data());
            ASSERT_EQ(getError(), GLenum(GL_NO_ERROR));
            kept.push_back(std::move(k));
        }
    }
    worker.join();
    ASSERT_TRUE(worker_error.empty()) << worker_error;
    deleteBuffers(1, &buf);
    ASSERT_GE(kept.size(), 2u);
    EXPECT_GE(kept.front().info.step, 100);
    // The last copy is the last snapshot: nothing was lost at the end.
    EXPECT_EQ(kept.back().info.sequence, 151u);

    WaveSession cpu(cpu_p);
    for (const Kept& k : kept) {
        ASSERT_EQ(k.info.width, e[0]);
        ASSERT_EQ(k.info.height, e[1]);
        ASSERT_GE(k.info.step, cpu.step());
        if (k.info.step > cpu.step()) cpu.advance(k.info.step - cpu.step());
        const SliceImage want = cpu.slice(plane, index, q);
        const float peak = want.max_abs();
        ASSERT_GT(peak, 0.0f);
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_NEAR(k.values[i], want.values[i], 1e-6f * peak) << "step " << k.info.step << " pixel " << i;
        // The device reductions: the max exactly up to the engines' difference, the level within
        // one histogram bin (2^(1/16), ~4.4 %) of abs_quantile's.
        EXPECT_NEAR(k.info.max_abs, peak, 1e-6f * peak) << "step " << k.info.step;
        const float level = abs_quantile({&want}, 0.99);
        EXPECT_GT(k.info.level, level / 1.05f) << "step " << k.info.step;
        EXPECT_LT(k.info.level, level * 1.05f) << "step " << k.info.step;
    }
#endif
}
