#include "scene/wavelet_samples.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "core/strict_json.hpp"

namespace voxwave {
namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::optional<double> parse_number(const std::string& token) {
    std::string t = trim(token);
    // from_chars rejects a leading '+', which spreadsheets do write.
    if (!t.empty() && t[0] == '+') t.erase(0, 1);
    double v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::vector<std::string> split_columns(const std::string& line) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, ',')) cols.push_back(col);
    if (!line.empty() && line.back() == ',') cols.emplace_back();
    return cols;
}

std::vector<double> load_csv(const std::string& path) {
    std::istringstream in(json::read_text_file(path));
    std::vector<double> out;
    std::size_t columns = 0;  // fixed by the first data line
    bool header_allowed = true;
    std::string raw;
    for (std::size_t line_no = 1; std::getline(in, raw); ++line_no) {
        std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        std::string field = "line " + std::to_string(line_no);
        std::vector<std::string> cols = split_columns(line);
        if (cols.size() > 2)
            throw InputError(path, field, "expected 1 or 2 columns (got " + std::to_string(cols.size()) + ")");
        bool all_text =
            std::none_of(cols.begin(), cols.end(), [](const std::string& c) { return parse_number(c).has_value(); });
        if (header_allowed && all_text) {
            header_allowed = false;
            continue;
        }
        header_allowed = false;
        if (columns == 0) columns = cols.size();
        if (cols.size() != columns)
            throw InputError(path, field, "expected " + std::to_string(columns) + " column(s) like the first line");
        auto v = parse_number(cols.back());
        if (!v) throw InputError(path, field, "not a finite number: '" + trim(cols.back()) + "'");
        if (columns == 2 && !parse_number(cols.front()))
            throw InputError(path, field, "not a finite number: '" + trim(cols.front()) + "'");
        out.push_back(*v);
    }
    if (out.empty()) throw InputError(path, "", "no samples");
    return out;
}

std::vector<double> load_h5(const std::string& path, const std::string& dataset) {
    if (dataset.empty()) throw InputError(path, "", "an HDF5 sample file needs \"dataset\"");
    h5::File f = h5::File::open_read(path);
    std::vector<hsize_t> dims;
    std::vector<double> out = f.read_doubles(dataset, &dims);
    if (dims.size() != 1)
        throw InputError(path, dataset, "expected a 1-D dataset (got rank " + std::to_string(dims.size()) + ")");
    if (out.empty()) throw InputError(path, dataset, "no samples");
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!std::isfinite(out[i]))
            throw InputError(path, dataset, "sample " + std::to_string(i) + " is not a finite number");
    return out;
}

}  // namespace

bool is_hdf5_path(const std::string& path) {
    auto dot = path.rfind('.');
    if (dot == std::string::npos) return false;
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext == ".h5" || ext == ".hdf5" || ext == ".he5";
}

std::vector<double> load_wavelet_samples(const std::string& path, const std::string& dataset) {
    return is_hdf5_path(path) ? load_h5(path, dataset) : load_csv(path);
}

}  // namespace voxwave
