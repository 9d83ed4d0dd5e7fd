#include <cstdio>
#include <cstdlib>
#include <initializer_list>
namespace voxwave {
double measure_copy_bandwidth_gbs(std::size_t, int);
}
int main() {
    for (std::size_t mb : {4, 16, 32, 64, 128, 256, 512})
        std::printf("%zu MiB/array: %.1f GB/s\n", mb, voxwave::measure_copy_bandwidth_gbs(mb << 20, 7));
}
