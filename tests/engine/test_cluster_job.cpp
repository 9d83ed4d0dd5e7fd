// Cluster jobs (issue 8): the Slurm batch script's exact lines, the quoting of file names for
// bash, every validation error, and the job folder written by write_cluster_job.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>

#include "model/voxel_grid.hpp"
#include "scene/cluster_job.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::contains_text;
using test::expect_error;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// File names in `folder`, sorted (to see that nothing else, no temporary file, is there).
std::vector<std::string> entries_of(const std::string& folder) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(folder)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

bool has_line(const std::string& text, const std::string& line) {
    const auto lines = lines_of(text);
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// What bash makes of `word`: the one argument it passes to printf.
std::string bash_reads(const std::string& word) {
    test::TempDir dir;
    const std::string script = dir.file("echo.sh");
    test::write_file(script, "printf '%s' " + word + "\n");
    FILE* p = ::popen(("bash " + script).c_str(), "r");
    std::string out;
    char buf[256];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
    return out;
}

ClusterJobSpec six_gpu_job() {
    ClusterJobSpec spec;
    spec.job_name = "rebar-6";
    spec.gpus = 6;
    spec.gpus_per_node = 4;
    spec.partition = "gpu-h100";
    spec.account = "proj42";
    spec.time_limit = "1-02:30:00";
    spec.extra_modules = "cuda/12.4 openmpi";
    return spec;
}

TEST(ClusterJob, SixGpusOnFourPerNodeExactScript) {
    const std::string expected =
        "#!/bin/bash\n"
        "# Written by voxwave: cluster job 'rebar-6', 6 GPUs, one MPI rank per GPU.\n"
        "# Rank 0 writes result.h5 (voxwave's File > Open result... shows it).\n"
        "# Submit from this folder with:  sbatch job.slurm\n"
        "# (Where Slurm starts MPI ranks through PMIx, `srun` can replace `mpirun`.)\n"
        "#SBATCH --job-name=rebar-6\n"
        "#SBATCH --nodes=2\n"
        "#SBATCH --ntasks=6\n"
        "#SBATCH --ntasks-per-node=4\n"
        "#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=1-02:30:00\n"
        "#SBATCH --partition=gpu-h100\n"
        "#SBATCH --account=proj42\n"
        "#SBATCH --output=voxwave-%j.log\n"
        "\n"
        "set -euo pipefail\n"
        "# NVLink multicast (NVLS) must stay off for voxwave's NCCL exchanges.\n"
        "export NCCL_NVLS_ENABLE=0\n"
        "set +u\n"
        "module load cuda/12.4 openmpi\n"
        "set -u\n"
        "cd \"$SLURM_SUBMIT_DIR\"\n"
        "mpirun -np \"$SLURM_NTASKS\" voxwave-cli run scene.json -o result.h5 --backend cuda\n";
    EXPECT_EQ(slurm_batch_script(six_gpu_job()), expected);
}

TEST(ClusterJob, OneGpuJobIsOneNodeAskingForOneGpu) {
    ClusterJobSpec spec;
    spec.job_name = "small";
    spec.gpus = 1;
    const std::string s = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(s, "#SBATCH --nodes=1")) << s;
    EXPECT_TRUE(has_line(s, "#SBATCH --ntasks=1")) << s;
    EXPECT_TRUE(has_line(s, "#SBATCH --ntasks-per-node=1")) << s;
    EXPECT_TRUE(has_line(s, "#SBATCH --gpus-per-node=1")) << s;
    EXPECT_TRUE(has_line(s, "#SBATCH --time=01:00:00")) << s;
    EXPECT_TRUE(contains_text(s, "'small', 1 GPU, one MPI rank")) << s;
    // The #SBATCH block must come before the first command, or Slurm ignores it.
    const auto lines = lines_of(s);
    std::size_t last_sbatch = 0, first_command = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("#SBATCH", 0) == 0) last_sbatch = i;
        if (!lines[i].empty() && lines[i][0] != '#' && first_command == lines.size()) first_command = i;
    }
    EXPECT_LT(last_sbatch, first_command);
    EXPECT_EQ(lines.front(), "#!/bin/bash");
}

TEST(ClusterJob, EightGpusFillTwoNodesExactly) {
    ClusterJobSpec spec;
    spec.job_name = "eight";
    spec.gpus = 8;
    spec.gpus_per_node = 8;
    const std::string s = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(s, "#SBATCH --nodes=1")) << s;
    spec.gpus = 9;
    const std::string t = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(t, "#SBATCH --nodes=2")) << t;
    EXPECT_TRUE(has_line(t, "#SBATCH --ntasks=9")) << t;
    EXPECT_TRUE(has_line(t, "#SBATCH --ntasks-per-node=8")) << t;
}

TEST(ClusterJob, ProcessGridGoesToTheRunOnlyWhenGiven) {
    ClusterJobSpec spec = six_gpu_job();
    const std::string run = "mpirun -np \"$SLURM_NTASKS\" voxwave-cli run scene.json -o result.h5 --backend cuda";
    EXPECT_TRUE(has_line(slurm_batch_script(spec), run)) << slurm_batch_script(spec);
    spec.process_grid = parse_process_grid("1x2x3", "process_grid");
    EXPECT_TRUE(has_line(slurm_batch_script(spec), run + " --process-grid 1x2x3")) << slurm_batch_script(spec);
    spec.process_grid = parse_process_grid("auto", "process_grid");
    EXPECT_TRUE(has_line(slurm_batch_script(spec), run)) << slurm_batch_script(spec);
    // Not PXxPYxPZ: refused by the parser, naming the field it was given.
    for (const char* bad : {"2x3", "1x2x3x1", "0x2x3", "1x-2x3", "a", "1x2x3 "})
        expect_error(catch_input_error([&] { parse_process_grid(bad, "process_grid"); }), "", "process_grid",
                     "is not auto or ranks along x, y and z as PXxPYxPZ");
}

TEST(ClusterJob, PartitionAccountAndModulesOnlyWhenGiven) {
    ClusterJobSpec spec;
    spec.job_name = "plain";
    const std::string plain = slurm_batch_script(spec);
    EXPECT_FALSE(contains_text(plain, "--partition")) << plain;
    EXPECT_FALSE(contains_text(plain, "--account")) << plain;
    EXPECT_FALSE(contains_text(plain, "module load")) << plain;
    EXPECT_TRUE(has_line(plain, "export NCCL_NVLS_ENABLE=0")) << plain;
    EXPECT_TRUE(has_line(plain, "set -euo pipefail")) << plain;

    spec.partition = "gpu";
    const std::string with_partition = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(with_partition, "#SBATCH --partition=gpu")) << with_partition;
    EXPECT_FALSE(contains_text(with_partition, "--account")) << with_partition;

    spec.partition.clear();
    spec.account = "acct";
    spec.extra_modules = "   ";  // only blanks: nothing to load
    const std::string with_account = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(with_account, "#SBATCH --account=acct")) << with_account;
    EXPECT_FALSE(contains_text(with_account, "--partition")) << with_account;
    EXPECT_FALSE(contains_text(with_account, "module load")) << with_account;
}

TEST(ClusterJob, FileNamesAreQuotedForBash) {
    ClusterJobSpec spec;
    spec.job_name = "quoted";
    spec.scene_file = "my scene's.json";
    spec.result_file = "out dir/r$HOME.h5";
    spec.cli = "/opt/voxwave 1.0/bin/voxwave-cli";
    spec.backend = "cpu";
    const std::string s = slurm_batch_script(spec);
    EXPECT_TRUE(has_line(s,
                         "mpirun -np \"$SLURM_NTASKS\" '/opt/voxwave 1.0/bin/voxwave-cli' run 'my scene'\\''s.json' "
                         "-o 'out dir/r$HOME.h5' --backend cpu"))
        << s;

    EXPECT_EQ(shell_quote("scene.json"), "scene.json");
    EXPECT_EQ(shell_quote("/a/b-c_d.h5"), "/a/b-c_d.h5");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    // Whatever the name, bash reads back exactly that one word.
    for (const std::string name : {"my scene's.json", "a b", "$(rm -rf x)", "`x`", "''", "a\"b", "*.json", "x;y&z|w",
                                   "tab\there", "back\\slash", "~user", "", "new\nline"})
        EXPECT_EQ(bash_reads(shell_quote(name)), name) << shell_quote(name);
}

TEST(ClusterJob, EveryBadFieldIsNamed) {
    const ClusterJobSpec good = six_gpu_job();
    ASSERT_NO_THROW(validate_cluster_job(good));
    struct Case {
        std::function<void(ClusterJobSpec&)> change;
        std::string field, reason;
    };
    const std::vector<Case> cases = {
        {[](auto& s) { s.gpus = 0; }, "gpus", "must be at least 1 (got 0)"},
        {[](auto& s) { s.gpus = -3; }, "gpus", "got -3"},
        {[](auto& s) { s.gpus_per_node = 0; }, "gpus_per_node", "must be at least 1 (got 0)"},
        {[](auto& s) { s.time_limit = "1h"; }, "time_limit", "'1h' is not [D-]HH:MM:SS or MM:SS"},
        {[](auto& s) { s.time_limit = ""; }, "time_limit", "is not [D-]HH:MM:SS"},
        {[](auto& s) { s.time_limit = "01:60:00"; }, "time_limit", "is not"},
        {[](auto& s) { s.time_limit = "10:61"; }, "time_limit", "is not"},
        {[](auto& s) { s.time_limit = "2-24:00:00"; }, "time_limit", "is not"},
        {[](auto& s) { s.time_limit = "1:2:3"; }, "time_limit", "is not"},
        {[](auto& s) { s.time_limit = "00:00:00"; }, "time_limit", "must be longer than zero"},
        {[](auto& s) { s.time_limit = "01:00:00\n#SBATCH --x"; }, "time_limit", "is not"},
        {[](auto& s) { s.job_name = ""; }, "job_name", "must not be empty"},
        {[](auto& s) { s.job_name = "my job"; }, "job_name", "a space is not allowed"},
        {[](auto& s) { s.job_name = "job$1"; }, "job_name", "'$' is not allowed"},
        {[](auto& s) { s.partition = "gpu h100"; }, "partition", "must not contain white space"},
        {[](auto& s) { s.partition = "gpu\n"; }, "partition", "must not contain white space"},
        {[](auto& s) { s.account = "a\tb"; }, "account", "must not contain white space"},
        {[](auto& s) { s.cli = ""; }, "cli", "must not be empty"},
        {[](auto& s) { s.scene_file = ""; }, "scene_file", "must not be empty"},
        {[](auto& s) { s.scene_file = "sub/scene.json"; }, "scene_file", "must be a file name, not a path"},
        {[](auto& s) { s.scene_file = ".."; }, "scene_file", "must be a file name"},
        {[](auto& s) { s.scene_file = "job.slurm"; }, "scene_file", "the batch script's name"},
        {[](auto& s) { s.result_file = ""; }, "result_file", "must not be empty"},
        {[](auto& s) { s.result_file = "r\n.h5"; }, "result_file", "control characters"},
        {[](auto& s) { s.backend = "gpu"; }, "backend", "unknown backend 'gpu'"},
        {[](auto& s) { s.extra_modules = "cuda; rm -rf ~"; }, "extra_modules", "';' is not allowed"},
        {[](auto& s) {
             s.process_grid.ranks = {1, 2, 2};
         },
         "process_grid", "1x2x2 has 4 ranks, the job has 6 GPUs (one rank each)"},
    };
    for (const Case& c : cases) {
        ClusterJobSpec bad = good;
        c.change(bad);
        SCOPED_TRACE(c.field + ": " + c.reason);
        expect_error(catch_input_error([&] { validate_cluster_job(bad); }), "", c.field, c.reason);
        // The script refuses the same spec with the same error.
        expect_error(catch_input_error([&] { slurm_batch_script(bad); }), "", c.field, c.reason);
    }
    // The accepted time forms.
    for (const std::string t :
         {"00:30", "90:00", "5:00", "1:00:00", "23:59:59", "48:00:00", "7-00:00:00", "0-00:00:01"}) {
        ClusterJobSpec spec = good;
        spec.time_limit = t;
        EXPECT_NO_THROW(validate_cluster_job(spec)) << t;
    }
}

TEST(ClusterJob, JobNameFromSceneFile) {
    EXPECT_EQ(cluster_job_name_for("/data/paper_rebar.json"), "paper_rebar");
    EXPECT_EQ(cluster_job_name_for("my model (v2).json"), "my_model__v2_");
    EXPECT_EQ(cluster_job_name_for(""), "voxwave");
    ClusterJobSpec spec;
    spec.job_name = cluster_job_name_for("weird name$.json");
    EXPECT_NO_THROW(validate_cluster_job(spec));
}

Scene job_scene() {
    Scene s = testing::block_scene(10, 8, 6, 0.01);
    s.materials.push_back(testing::steel());
    s.shapes.push_back(Shape{"steel", BoxShape{{0.02, 0.02, 0.02}, {0.05, 0.04, 0.03}}});
    s.sources.push_back({"S1", {0.05, 0.04, 0.06}, {0, 0, -1}, 2.5, testing::ricker(50e3, 4e-5)});
    s.receivers.push_back({"R1", {0.02, 0.04, 0.06}});
    s.receivers.push_back({"R2", {0.08, 0.04, 0.06}});
    s.run.method = Method::Tcovfem;
    s.run.stages = 5;
    s.run.steps = 1234;
    s.run.backend = Backend::Cuda;
    return s;
}

TEST(ClusterJob, WriteCreatesTheFolderWithSceneAndExecutableScript) {
    test::TempDir tmp;
    const std::string folder = tmp.file("jobs/rebar");  // neither level exists yet
    const Scene scene = job_scene();
    ClusterJobSpec spec;
    spec.job_name = "rebar";
    spec.gpus = 4;
    write_cluster_job(folder, scene, spec);

    EXPECT_EQ(entries_of(folder), (std::vector<std::string>{"job.slurm", "scene.json"}));
    const Scene back = read_scene_json(folder + "/scene.json");
    EXPECT_EQ(back.grid, scene.grid);
    EXPECT_EQ(back.materials, scene.materials);
    EXPECT_EQ(back.shapes, scene.shapes);
    ASSERT_EQ(back.sources.size(), 1u);
    EXPECT_EQ(back.sources[0], scene.sources[0]);
    EXPECT_EQ(back.receivers, scene.receivers);
    EXPECT_EQ(back.run, scene.run);
    EXPECT_TRUE(back == scene);

    const std::string script = folder + "/job.slurm";
    EXPECT_EQ(test::read_file(script), slurm_batch_script(spec));
    struct stat st {};
    ASSERT_EQ(::stat(script.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0755u);

    // Written again (another GPU count): replaced, still executable, nothing left behind.
    spec.gpus = 6;
    write_cluster_job(folder, scene, spec);
    EXPECT_TRUE(has_line(test::read_file(script), "#SBATCH --ntasks=6"));
    ASSERT_EQ(::stat(script.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0755u);
    EXPECT_EQ(entries_of(folder), (std::vector<std::string>{"job.slurm", "scene.json"}));
}

TEST(ClusterJob, ReferencedFilesAreCopiedIntoTheFolder) {
    test::TempDir tmp;
    std::filesystem::create_directories(tmp.file("model"));
    Scene scene = job_scene();
    scene.base_dir = tmp.file("model");
    // A painted voxel layer and a sampled wavelet, both beside the original scene.
    VoxelGrid painted = rasterise(scene);
    painted.ids[3] = 2;
    write_voxels_h5(tmp.file("model/painted.h5"), "/model/material_ids", painted);
    scene.voxels = VoxelsRef{"painted.h5", "/model/material_ids"};
    test::write_file(tmp.file("model/pulse.csv"), "0\n1\n-0.5\n0.25\n");
    Source s2{"S2", {0.01, 0.01, 0.06}, {0, 0, -1}, 1, {}};
    s2.wavelet.type = WaveletType::Samples;
    s2.wavelet.file = "pulse.csv";
    s2.wavelet.sample_dt = 1e-6;
    s2.wavelet.samples = {0, 1, -0.5, 0.25};
    scene.sources.push_back(s2);
    Source s3 = s2;  // a second source on the same file: one copy
    s3.name = "S3";
    scene.sources.push_back(s3);

    ClusterJobSpec spec;
    spec.job_name = "copied";
    const std::string folder = tmp.file("job");
    write_cluster_job(folder, scene, spec);
    EXPECT_EQ(entries_of(folder), (std::vector<std::string>{"job.slurm", "painted.h5", "pulse.csv", "scene.json"}));
    const Scene back = read_scene_json(folder + "/scene.json");
    ASSERT_TRUE(back.voxels.has_value());
    EXPECT_EQ(back.voxels->file, "painted.h5");
    EXPECT_EQ(back.sources[1].wavelet.file, "pulse.csv");
    EXPECT_EQ(back.sources[1].wavelet.samples, (std::vector<double>{0, 1, -0.5, 0.25}));
    EXPECT_EQ(rasterise(back).ids, painted.ids);

    // Two different files with one name cannot both go in.
    std::filesystem::create_directories(tmp.file("other"));
    test::write_file(tmp.file("other/pulse.csv"), "1\n2\n");
    scene.sources[2].wavelet.file = tmp.file("other/pulse.csv");
    scene.sources[2].wavelet.samples = {1, 2};
    InputError e = catch_input_error([&] { write_cluster_job(tmp.file("job2"), scene, spec); });
    expect_error(e, tmp.file("other/pulse.csv"), "", "has the same name as " + tmp.file("model/pulse.csv"));

    // A referenced file that is gone: named in the error.
    scene.sources.pop_back();
    std::filesystem::remove(tmp.file("model/pulse.csv"));
    e = catch_input_error([&] { write_cluster_job(tmp.file("job3"), scene, spec); });
    expect_error(e, tmp.file("model/pulse.csv"), "", "cannot copy into the job folder");
}

TEST(ClusterJob, UnwritableFolderIsNamedAndBadSpecWritesNothing) {
    test::TempDir tmp;
    test::write_file(tmp.file("a-file"), "x");
    const std::string folder = tmp.file("a-file/job");  // a folder under a plain file: never creatable
    ClusterJobSpec spec;
    spec.job_name = "x";
    InputError e = catch_input_error([&] { write_cluster_job(folder, job_scene(), spec); });
    expect_error(e, folder, "", "cannot create the folder");
    EXPECT_TRUE(contains_text(e.what(), folder)) << e.what();

    e = catch_input_error([&] { write_cluster_job(tmp.file("a-file"), job_scene(), spec); });
    expect_error(e, tmp.file("a-file"), "", "is not a folder");

    e = catch_input_error([&] { write_cluster_job("", job_scene(), spec); });
    expect_error(e, "", "folder", "must not be empty");

    // An invalid spec is refused before the folder is even created.
    spec.gpus = 0;
    e = catch_input_error([&] { write_cluster_job(tmp.file("never"), job_scene(), spec); });
    expect_error(e, "", "gpus", "must be at least 1");
    EXPECT_FALSE(std::filesystem::exists(tmp.file("never")));

    // An invalid scene: no script either.
    spec.gpus = 2;
    Scene bad = job_scene();
    bad.grid.spacing = -1;
    EXPECT_THROW(write_cluster_job(tmp.file("bad-scene"), bad, spec), InputError);
    EXPECT_FALSE(std::filesystem::exists(tmp.file("bad-scene/job.slurm")));
}

}  // namespace
}  // namespace voxwave
