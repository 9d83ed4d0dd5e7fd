#include "core/hdf5_util.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/errors.hpp"

namespace voxwave::h5 {
namespace {

std::size_t element_count(const std::vector<hsize_t>& dims) {
    std::size_t n = 1;
    for (hsize_t d : dims) n *= static_cast<std::size_t>(d);
    return n;
}

std::vector<hsize_t> space_dims(hid_t space) {
    int rank = H5Sget_simple_extent_ndims(space);
    std::vector<hsize_t> dims(rank > 0 ? static_cast<std::size_t>(rank) : 0);
    if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    return dims;
}

// The number of values a dataset or attribute declares, or -1 when the file cannot hold them.
// A corrupt dataspace may claim 2^60 values: allocating for those would end the process
// (bad_alloc) instead of the read. Values stored as they are lie in the file, so they take at
// most its size; filtered (compressed) data are allowed deflate's best ratio, 1032:1.
long long storable_value_count(hid_t file, const std::vector<hsize_t>& dims, hid_t file_type, bool filtered) {
    unsigned long long n = 1;
    for (hsize_t d : dims)
        if (__builtin_mul_overflow(n, static_cast<unsigned long long>(d), &n)) return -1;
    hsize_t file_size = 0;
    if (H5Fget_filesize(file, &file_size) < 0) return -1;
    const unsigned long long value_size = std::max<std::size_t>(H5Tget_size(file_type), 1);
    unsigned long long bytes = 0, limit = 0;
    if (__builtin_mul_overflow(n, value_size, &bytes)) return -1;
    if (__builtin_mul_overflow(static_cast<unsigned long long>(file_size), filtered ? 1032ULL : 1ULL, &limit))
        limit = ~0ULL;
    if (bytes > limit || n > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) return -1;
    return static_cast<long long>(n);
}

bool has_filters(hid_t dataset) {
    Id dcpl(H5Dget_create_plist(dataset), H5Pclose);
    return dcpl.valid() && H5Pget_nfilters(dcpl.get()) > 0;
}

std::size_t dataset_value_count(hid_t file, hid_t dataset, hid_t file_type, const std::vector<hsize_t>& dims,
                                const std::string& label, const std::string& name) {
    long long n = storable_value_count(file, dims, file_type, has_filters(dataset));
    if (n < 0) throw InputError(label, name, "declares more values than the file holds (file truncated or corrupt)");
    return static_cast<std::size_t>(n);
}

Id make_space(const std::vector<hsize_t>& dims) {
    hid_t s =
        dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    return {s, H5Sclose};
}

Id utf8_vlen_string_type() {
    Id t(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(t.get(), H5T_VARIABLE);
    H5Tset_cset(t.get(), H5T_CSET_UTF8);
    return t;
}

bool is_numeric(H5T_class_t c) { return c == H5T_FLOAT || c == H5T_INTEGER; }

// Reads a string-typed dataset or attribute whose file type is `ftype`, with `n` elements.
// `read` performs the H5Dread/H5Aread with the given memory type into the given buffer.
template <class ReadFn>
std::vector<std::string> read_string_values(hid_t ftype, hid_t space, std::size_t n, ReadFn read) {
    std::vector<std::string> out;
    out.reserve(n);
    if (H5Tis_variable_str(ftype) > 0) {
        Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        H5Tset_cset(mem.get(), H5Tget_cset(ftype));
        std::vector<char*> buf(n, nullptr);
        if (n > 0 && read(mem.get(), buf.data()) < 0) return {};
        for (char* s : buf) out.emplace_back(s ? s : "");
        if (n > 0) H5Dvlen_reclaim(mem.get(), space, H5P_DEFAULT, buf.data());
        return out;
    }
    std::size_t size = H5Tget_size(ftype);
    Id mem(H5Tcopy(ftype), H5Tclose);
    std::vector<char> buf(n * size + 1, '\0');
    if (n > 0 && read(mem.get(), buf.data()) < 0) return {};
    bool space_padded = H5Tget_strpad(ftype) == H5T_STR_SPACEPAD;
    for (std::size_t i = 0; i < n; ++i) {
        const char* s = buf.data() + i * size;
        std::size_t len = strnlen(s, size);
        if (space_padded)
            while (len > 0 && s[len - 1] == ' ') --len;
        out.emplace_back(s, len);
    }
    return out;
}

}  // namespace

void silence_library_errors() {
    // Cheap, and per thread in thread-safe builds of the library, so done on every entry.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

std::string attribute_field(const std::string& object, const std::string& name) {
    return object == "/" ? name : object + " attribute '" + name + "'";
}

Id& Id::operator=(Id&& o) noexcept {
    if (this != &o) {
        reset();
        id_ = o.id_;
        closer_ = o.closer_;
        o.id_ = -1;
    }
    return *this;
}

void Id::reset() noexcept {
    if (id_ >= 0 && closer_) closer_(id_);
    id_ = -1;
}

bool Id::close() {
    if (id_ < 0) return true;
    bool ok = closer_(id_) >= 0;
    id_ = -1;
    return ok;
}

File File::create(const std::string& path, const std::string& label) {
    silence_library_errors();
    Id f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!f.valid()) throw InputError(label, "", "cannot write: the HDF5 library could not create the file");
    return File(std::move(f), label);
}

File File::open_read(const std::string& path) {
    silence_library_errors();
    // The library's own failure says nothing about why; ask the OS first.
    // open() succeeds on a directory, and the library would then call it "not an HDF5 file".
    if (std::filesystem::is_directory(path)) throw InputError(path, "", "cannot open: Is a directory");
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw InputError(path, "", std::string("cannot open: ") + std::strerror(errno));
    ::close(fd);
    Id f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!f.valid()) throw InputError(path, "", "not an HDF5 file or truncated");
    return File(std::move(f), path);
}

void File::close() {
    if (!file_.close()) throw InputError(label_, "", "cannot write: the HDF5 library could not flush the file");
}

Id File::create_dataset(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims) {
    Id lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(lcpl.get(), 1);
    Id space = make_space(dims);
    Id ds(H5Dcreate2(id(), name.c_str(), file_type, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (!ds.valid()) throw InputError(label_, name, "cannot write: the HDF5 library could not create the dataset");
    return ds;
}

void File::write_doubles(const std::string& name, const std::vector<hsize_t>& dims, const double* data) {
    Id ds = create_dataset(name, H5T_IEEE_F64LE, dims);
    if (element_count(dims) > 0 && H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        throw InputError(label_, name, "cannot write the dataset");
}

void File::write_uint8(const std::string& name, const std::vector<hsize_t>& dims, const std::uint8_t* data) {
    Id ds = create_dataset(name, H5T_STD_U8LE, dims);
    if (element_count(dims) > 0 && H5Dwrite(ds.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        throw InputError(label_, name, "cannot write the dataset");
}

void File::write_strings(const std::string& name, const std::vector<std::string>& values) {
    Id type = utf8_vlen_string_type();
    Id ds = create_dataset(name, type.get(), {values.size()});
    std::vector<const char*> ptrs;
    ptrs.reserve(values.size());
    for (const auto& v : values) ptrs.push_back(v.c_str());
    if (!values.empty() && H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0)
        throw InputError(label_, name, "cannot write the dataset");
}

void File::write_scalar_attribute(const std::string& object, const std::string& name, hid_t file_type, hid_t mem_type,
                                  const void* value) {
    Id obj(H5Oopen(id(), object.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.valid()) throw InputError(label_, object, "cannot write: no such object");
    if (H5Aexists(obj.get(), name.c_str()) > 0) H5Adelete(obj.get(), name.c_str());
    Id space(H5Screate(H5S_SCALAR), H5Sclose);
    Id attr(H5Acreate2(obj.get(), name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), mem_type, value) < 0)
        throw InputError(label_, attribute_field(object, name), "cannot write the attribute");
}

void File::write_attribute(const std::string& object, const std::string& name, double value) {
    write_scalar_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void File::write_attribute(const std::string& object, const std::string& name, std::int32_t value) {
    write_scalar_attribute(object, name, H5T_STD_I32LE, H5T_NATIVE_INT32, &value);
}

void File::write_attribute(const std::string& object, const std::string& name, std::int64_t value) {
    write_scalar_attribute(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void File::write_attribute(const std::string& object, const std::string& name, const std::string& value) {
    Id type = utf8_vlen_string_type();
    const char* ptr = value.c_str();
    write_scalar_attribute(object, name, type.get(), type.get(), &ptr);
}

void File::write_attribute(const std::string& object, const std::string& name, const std::vector<double>& values) {
    Id obj(H5Oopen(id(), object.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.valid()) throw InputError(label_, object, "cannot write: no such object");
    if (H5Aexists(obj.get(), name.c_str()) > 0) H5Adelete(obj.get(), name.c_str());
    Id space = make_space({values.size()});
    Id attr(H5Acreate2(obj.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attr.valid() || (!values.empty() && H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, values.data()) < 0))
        throw InputError(label_, attribute_field(object, name), "cannot write the attribute");
}

namespace {
// Whether `name` exists in `file` and is an object of identifier type `type`.
bool has_object(hid_t file, const std::string& name, H5I_type_t type) {
    // H5Lexists fails (rather than answering no) when an intermediate group is missing, so
    // walk the path one component at a time.
    std::size_t pos = 0;
    while (true) {
        pos = name.find('/', pos + 1);
        std::string prefix = name.substr(0, pos);
        if (!prefix.empty() && prefix != "/" && H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        if (pos == std::string::npos) break;
    }
    Id obj(H5Oopen(file, name.c_str(), H5P_DEFAULT), H5Oclose);
    return obj.valid() && H5Iget_type(obj.get()) == type;
}
}  // namespace

bool File::has_dataset(const std::string& name) const { return has_object(id(), name, H5I_DATASET); }

Id File::open_dataset(const std::string& name) const {
    if (!has_dataset(name)) throw InputError(label_, name, "missing dataset");
    Id ds(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds.valid()) throw InputError(label_, name, "cannot open the dataset (file truncated or corrupt)");
    return ds;
}

bool File::has_attribute(const std::string& object, const std::string& name) const {
    // A dataset's or a group's (the acquisition groups carry theirs, docs/architecture.md#imaging).
    if (object != "/" && !has_dataset(object) && !has_object(id(), object, H5I_GROUP)) return false;
    return H5Aexists_by_name(id(), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

Id File::open_attribute(const std::string& object, const std::string& name) const {
    if (!has_attribute(object, name)) throw InputError(label_, attribute_field(object, name), "missing attribute");
    Id attr(H5Aopen_by_name(id(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attr.valid()) throw InputError(label_, attribute_field(object, name), "cannot open the attribute");
    return attr;
}

std::vector<hsize_t> File::dims(const std::string& name) const {
    Id ds = open_dataset(name);
    Id space(H5Dget_space(ds.get()), H5Sclose);
    return space_dims(space.get());
}

std::vector<double> File::read_doubles(const std::string& name, std::vector<hsize_t>* dims) const {
    Id ds = open_dataset(name);
    Id type(H5Dget_type(ds.get()), H5Tclose);
    if (!is_numeric(H5Tget_class(type.get()))) throw InputError(label_, name, "expected a numeric dataset");
    Id space(H5Dget_space(ds.get()), H5Sclose);
    std::vector<hsize_t> d = space_dims(space.get());
    std::vector<double> out(dataset_value_count(id(), ds.get(), type.get(), d, label_, name));
    if (!out.empty() && H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
        throw InputError(label_, name, "cannot read the dataset (file truncated or corrupt)");
    if (dims) *dims = d;
    return out;
}

std::vector<std::uint8_t> File::read_uint8(const std::string& name, std::vector<hsize_t>* dims) const {
    Id ds = open_dataset(name);
    Id type(H5Dget_type(ds.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_INTEGER)
        throw InputError(label_, name, "expected an integer dataset (material ids 0..255)");
    Id space(H5Dget_space(ds.get()), H5Sclose);
    std::vector<hsize_t> d = space_dims(space.get());
    std::size_t n = dataset_value_count(id(), ds.get(), type.get(), d, label_, name);
    std::vector<std::uint8_t> out(n);
    const char* read_error = "cannot read the dataset (file truncated or corrupt)";
    if (H5Tget_size(type.get()) == 1 && H5Tget_sign(type.get()) == H5T_SGN_NONE) {
        if (n > 0 && H5Dread(ds.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
            throw InputError(label_, name, read_error);
    } else {
        // Wider types (numpy's default int64) are fine as long as every value fits; the
        // library's own conversion would silently clip out-of-range values.
        std::vector<std::int64_t> wide(n);
        if (n > 0 && H5Dread(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, wide.data()) < 0)
            throw InputError(label_, name, read_error);
        for (std::size_t i = 0; i < n; ++i) {
            if (wide[i] < 0 || wide[i] > 255)
                throw InputError(label_, name, "value " + std::to_string(wide[i]) + " outside 0..255");
            out[i] = static_cast<std::uint8_t>(wide[i]);
        }
    }
    if (dims) *dims = d;
    return out;
}

std::vector<std::string> File::read_strings(const std::string& name) const {
    Id ds = open_dataset(name);
    Id type(H5Dget_type(ds.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING) throw InputError(label_, name, "expected a string dataset");
    Id space(H5Dget_space(ds.get()), H5Sclose);
    std::vector<hsize_t> d = space_dims(space.get());
    if (d.size() != 1) throw InputError(label_, name, "expected a 1-D string dataset");
    std::size_t n = dataset_value_count(id(), ds.get(), type.get(), d, label_, name);
    bool failed = false;
    auto values = read_string_values(type.get(), space.get(), n, [&](hid_t mem, void* buf) {
        herr_t rc = H5Dread(ds.get(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        failed = rc < 0;
        return rc;
    });
    if (failed) throw InputError(label_, name, "cannot read the dataset (file truncated or corrupt)");
    return values;
}

double File::read_double_attribute(const std::string& object, const std::string& name) const {
    Id attr = open_attribute(object, name);
    Id type(H5Aget_type(attr.get()), H5Tclose);
    Id space(H5Aget_space(attr.get()), H5Sclose);
    if (!is_numeric(H5Tget_class(type.get())) || H5Sget_simple_extent_npoints(space.get()) != 1)
        throw InputError(label_, attribute_field(object, name), "expected one number");
    double v = 0;
    if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0)
        throw InputError(label_, attribute_field(object, name), "cannot read the attribute");
    return v;
}

std::int64_t File::read_int_attribute(const std::string& object, const std::string& name) const {
    Id attr = open_attribute(object, name);
    Id type(H5Aget_type(attr.get()), H5Tclose);
    Id space(H5Aget_space(attr.get()), H5Sclose);
    if (H5Tget_class(type.get()) != H5T_INTEGER || H5Sget_simple_extent_npoints(space.get()) != 1)
        throw InputError(label_, attribute_field(object, name), "expected one integer");
    std::int64_t v = 0;
    if (H5Aread(attr.get(), H5T_NATIVE_INT64, &v) < 0)
        throw InputError(label_, attribute_field(object, name), "cannot read the attribute");
    return v;
}

std::string File::read_string_attribute(const std::string& object, const std::string& name) const {
    Id attr = open_attribute(object, name);
    Id type(H5Aget_type(attr.get()), H5Tclose);
    Id space(H5Aget_space(attr.get()), H5Sclose);
    std::string field = attribute_field(object, name);
    if (H5Tget_class(type.get()) != H5T_STRING || H5Sget_simple_extent_npoints(space.get()) != 1)
        throw InputError(label_, field, "expected one string");
    bool failed = false;
    auto values = read_string_values(type.get(), space.get(), 1, [&](hid_t mem, void* buf) {
        herr_t rc = H5Aread(attr.get(), mem, buf);
        failed = rc < 0;
        return rc;
    });
    if (failed || values.size() != 1) throw InputError(label_, field, "cannot read the attribute");
    return values[0];
}

std::vector<double> File::read_double_array_attribute(const std::string& object, const std::string& name) const {
    Id attr = open_attribute(object, name);
    Id type(H5Aget_type(attr.get()), H5Tclose);
    Id space(H5Aget_space(attr.get()), H5Sclose);
    if (!is_numeric(H5Tget_class(type.get())))
        throw InputError(label_, attribute_field(object, name), "expected numbers");
    hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n > 0 && storable_value_count(id(), {static_cast<hsize_t>(n)}, type.get(), false) < 0)
        throw InputError(label_, attribute_field(object, name),
                         "declares more values than the file holds (file truncated or corrupt)");
    std::vector<double> out(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (!out.empty() && H5Aread(attr.get(), H5T_NATIVE_DOUBLE, out.data()) < 0)
        throw InputError(label_, attribute_field(object, name), "cannot read the attribute");
    return out;
}

}  // namespace voxwave::h5
