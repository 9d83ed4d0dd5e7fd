#include <cstring>
#include <random>

#include "core/json_format.hpp"
#include "core/strict_json.hpp"
#include "test_util.hpp"

namespace voxwave {
namespace {

using test::catch_input_error;
using test::expect_error;

TEST(StrictJson, DuplicateKeysAreReportedWithTheirPath) {
    expect_error(catch_input_error([] { json::parse_strict(R"({"a": 1, "a": 2})", "f.json"); }), "f.json", "a",
                 "duplicate key");
    expect_error(catch_input_error([] {
                     json::parse_strict(R"({"a": [{"b": 1}, {"c": [1, [], {"d": 1, "e": {}, "d": 2}]}], "z": 0})",
                                        "f.json");
                 }),
                 "f.json", "a[1].c[2].d", "duplicate key");
    // The same key in sibling objects is fine.
    EXPECT_NO_THROW(json::parse_strict(R"({"a": [{"b": 1}, {"b": 2}], "c": {"b": 3}})", "f.json"));
}

TEST(StrictJson, MalformedTextGivesLineAndColumn) {
    expect_error(catch_input_error([] { json::parse_strict("{\n  \"a\": 1\n  \"b\": 2\n}", "f.json"); }), "f.json", "",
                 "malformed JSON at line 3, column 5: syntax error while parsing object - unexpected string literal");
    expect_error(catch_input_error([] { json::parse_strict("", "f.json"); }), "f.json", "", "malformed JSON at line 1");
}

TEST(StrictJson, IntegerConversions) {
    using json::Json;
    EXPECT_EQ(json::to_integer(Json::parse("1e4"), "f", "n"), 10000);
    EXPECT_EQ(json::to_integer(Json::parse("-7"), "f", "n"), -7);
    expect_error(catch_input_error([] { json::to_integer(Json::parse("1.5"), "f", "n"); }), "f", "n",
                 "expected an integer (got a number)");
    expect_error(catch_input_error([] { json::to_integer(Json::parse("18446744073709551615"), "f", "n"); }), "f", "n",
                 "too large");
    EXPECT_EQ(json::to_unsigned(Json::parse("18446744073709551615"), "f", "n"), 18446744073709551615ull);
    expect_error(catch_input_error([] { json::to_unsigned(Json::parse("-1"), "f", "n"); }), "f", "n", "non-negative");
    expect_error(catch_input_error([] { json::to_number(Json::parse("null"), "f", "n"); }), "f", "n",
                 "expected a number (got null)");
}

TEST(JsonFormat, DoublesRoundTripBitForBit) {
    // Random bit patterns cover subnormals, huge and tiny exponents, and -0.0.
    std::mt19937_64 rng(11);
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    std::vector<double> expected;
    while (expected.size() < 20000) {
        std::uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isfinite(d)) continue;
        expected.push_back(d);
        values.push_back(nlohmann::ordered_json::array({d, 0.1 * d, 1.0 / 3}));
    }
    expected.push_back(-0.0);
    values.push_back(nlohmann::ordered_json::array({-0.0, 0.0, 5e-324}));
    nlohmann::ordered_json doc = {{"v", values}};
    json::Json back = json::parse_strict(json::format_json(doc), "mem");
    ASSERT_EQ(back["v"].size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            double got = back["v"][i][k].get<double>(), want = values[i][k].get<double>();
            ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << i << " " << k;
        }
}

}  // namespace
}  // namespace voxwave
