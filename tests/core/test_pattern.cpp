// test_pattern.cpp — RLE and .cells: every header form, comments, wrapping, located errors, the round
// trip through write_rle, the bundled patterns, gzipped files and the file loader's refusals.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/rule.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<ls::Cell> cells_of(std::initializer_list<std::pair<int, int>> xy) {
  std::vector<ls::Cell> cells;
  for (auto [x, y] : xy) cells.push_back(ls::Cell{x, y});
  return cells;
}

// The message of the InputError that parse(text) throws ("" if it does not throw one).
template <typename Parse>
std::string error_of(Parse parse, std::string_view text) {
  try {
    parse(text);
  } catch (const ls::InputError& e) {
    return e.what();
  }
  return "";
}
std::string rle_error(std::string_view text) { return error_of(ls::parse_rle, text); }
std::string cells_error(std::string_view text) { return error_of(ls::parse_cells, text); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::vector<ls::Cell> kGlider = cells_of({{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}});

// `text` as one gzip member, as gzip(1) and Golly write it.
std::string gzip(std::string_view text) {
  z_stream z{};
  // 16 + MAX_WBITS: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

TEST(Rle, GolliesHeaderFormAndBody) {
  const ls::Pattern p =
      ls::parse_rle("#N Glider\n#C A spaceship.\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  EXPECT_EQ(p.name, "Glider");
  ASSERT_EQ(p.comments.size(), 1u);
  EXPECT_EQ(p.comments[0], "A spaceship.");
  EXPECT_EQ(p.rule_text, "B3/S23");
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  EXPECT_EQ(p.cells, kGlider);
  EXPECT_FALSE(p.pos.has_value());
}

TEST(Rle, EveryHeaderFormGivesTheSameBox) {
  for (const char* header : {"x = 3, y = 3, rule = B3/S23", "x=3,y=3,rule=B3/S23", "x = 3, y = 3", "x=3,y=3",
                             "  x  =  3 ,  y =3 , rule=  B3/S23  ", "x = 3, y = 3, rule = 23/3",
                             "x = 3, y = 3, rule = B3/S23:T64,64", "x = 3, y = 3, rule = Life\r"}) {
    const ls::Pattern p = ls::parse_rle(std::string(header) + "\nbo$2bo$3o!");
    EXPECT_EQ(p.width, 3) << header;
    EXPECT_EQ(p.height, 3) << header;
    EXPECT_EQ(p.cells, kGlider) << header;
  }
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3\nbo$2bo$3o!").rule_text, "");
  EXPECT_EQ(ls::parse_rle("x=3,y=3,rule=23/3\nbo$2bo$3o!").rule_text, "23/3");
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3, rule = B3/S23:T64,32\n3o!").rule_text, "B3/S23:T64,32");
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3, rule = Life  \r\n3o!").rule_text, "Life");
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3, rule =\n3o!").rule_text, "");
}

TEST(Rle, HashLinesBeforeTheHeader) {
  const ls::Pattern p = ls::parse_rle(
      "#N  R-pentomino \n#O Richard Guy\n#C first\n#c second\n#C\n#C   indented\n#R -1 -1\n#P 5 5\n"
      "#CXRLE Pos=-7,12 Gen=3\n\n   \nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!");
  EXPECT_EQ(p.name, "R-pentomino");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"first", "second", "", "  indented"}));
  ASSERT_TRUE(p.pos.has_value());
  EXPECT_EQ(*p.pos, (ls::Cell{-7, 12}));
  EXPECT_EQ(p.cells.size(), 5u);
}

TEST(Rle, CxrleWithoutAUsablePosLeavesPosUnset) {
  // Pos is informational; Golly writes unbounded coordinates that this app cannot hold.
  EXPECT_FALSE(ls::parse_rle("#CXRLE Gen=100\nx = 1, y = 1\no!").pos.has_value());
  EXPECT_FALSE(ls::parse_rle("#CXRLE Pos=99999999999999,0\nx = 1, y = 1\no!").pos.has_value());
  EXPECT_FALSE(ls::parse_rle("#CXRLE Pos=1\nx = 1, y = 1\no!").pos.has_value());
  EXPECT_EQ(*ls::parse_rle("#CXRLE Gen=4 Pos=3,-4\nx = 1, y = 1\no!").pos, (ls::Cell{3, -4}));
}

TEST(Rle, AllCellLettersOfTwoStates) {
  // b and . are dead, o and A live.
  const ls::Pattern p = ls::parse_rle("x = 6, y = 2\no.A2bo$.A2.2A!");
  EXPECT_EQ(p.cells, cells_of({{0, 0}, {2, 0}, {5, 0}, {1, 1}, {4, 1}, {5, 1}}));
}

TEST(Rle, LinesWrappedAnywhereBetweenTokens) {
  const ls::Pattern one = ls::parse_rle("x = 36, y = 2\n12bo23b$3o5bo!");
  const ls::Pattern wrapped = ls::parse_rle("x = 36, y = 2\n12b\no\r\n  23b $\n3o\n5b\no\n\n!");
  EXPECT_EQ(wrapped.cells, one.cells);
  EXPECT_EQ(one.cells, cells_of({{12, 0}, {0, 1}, {1, 1}, {2, 1}, {8, 1}}));
  // Golly also reads a count continued across a line break.
  EXPECT_EQ(ls::parse_rle("x = 13, y = 1\n1\n2bo!").cells, cells_of({{12, 0}}));
}

TEST(Rle, MultiDigitCountsBeforeDollarSkipRows) {
  const ls::Pattern p = ls::parse_rle("x = 2, y = 15\no12$bo$$o!");
  EXPECT_EQ(p.cells, cells_of({{0, 0}, {1, 12}, {0, 14}}));
  EXPECT_EQ(p.height, 15);
}

TEST(Rle, TrailingDeadCellsAndAMissingBangAreAccepted) {
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3\nbo$2bo$3o").cells, kGlider);
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3\nbob$2bo$3o$").cells, kGlider);
  // A dead run past the box is harmless (only live cells must lie inside it).
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3\nbo999999b$2bo$3o!").cells, kGlider);
}

TEST(Rle, EverythingAfterTheBangIsIgnored) {
  EXPECT_EQ(ls::parse_rle("x = 3, y = 3\nbo$2bo$3o!\nthis is ZZZ free text 9999999999999999999o\n").cells,
            kGlider);
}

TEST(Rle, ZeroOrMissingCountIsOne) {
  // As Golly reads it.
  EXPECT_EQ(ls::parse_rle("x = 3, y = 1\n0bo!").cells, cells_of({{1, 0}}));
}

TEST(Rle, EmptyPatterns) {
  const ls::Pattern p = ls::parse_rle("x = 0, y = 0, rule = B3/S23\n!");
  EXPECT_EQ(p.width, 0);
  EXPECT_EQ(p.height, 0);
  EXPECT_TRUE(p.cells.empty());
  EXPECT_TRUE(ls::parse_rle("x = 5, y = 5").cells.empty());
}

TEST(Rle, OtherCellStatesAreLocatedErrors) {
  EXPECT_EQ(rle_error("x = 3, y = 1\noBo!"),
            "line 2, column 2: cell state 'B': lifestreams is two-state (dead is b or ., live is o or A)");
  EXPECT_TRUE(starts_with(rle_error("#C c\nx = 3, y = 2\n3o$\n  2pA!"), "line 4, column 4: cell state 'p'"))
      << rle_error("#C c\nx = 3, y = 2\n3o$\n  2pA!");
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 1\nobZ!"), "line 2, column 3: cell state 'Z'"));
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 1\nx!"), "line 2, column 1: cell state 'x'"));
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 1\no,o!"), "line 2, column 2: unexpected ','"));
  EXPECT_TRUE(starts_with(rle_error(std::string("x = 3, y = 1\no\0o!", 16)),
                          "line 2, column 2: unexpected byte 0x00"));
}

TEST(Rle, CountsThatOverflowAreLocatedErrors) {
  const std::string big = "line 2, column 3: run count is too large (at most 1048576)";
  EXPECT_EQ(rle_error("x = 3, y = 1\nbo99999999999999999999999999b!"), big);
  EXPECT_EQ(rle_error("x = 3, y = 1\nbo1048577$!"), big);
  EXPECT_EQ(rle_error("x = 3, y = 1\nbo2147483648o!"), big);
  // A huge dead run is not walked cell by cell, and the box check stops a huge live run.
  EXPECT_TRUE(
      starts_with(rle_error("x = 3, y = 1\n1048576o!"), "line 2, column 8: live cell at (3, 0) is outside"));
}

TEST(Rle, BadHeadersAreLocatedErrors) {
  EXPECT_EQ(rle_error("x = -3, y = 3\n3o!"), "line 1, column 5: negative pattern size in the header");
  EXPECT_EQ(rle_error("x = 3, y = -1\n3o!"), "line 1, column 12: negative pattern size in the header");
  EXPECT_EQ(rle_error("x = 1048577, y = 3\n3o!"),
            "line 1, column 5: the pattern width (absurd header) is too large (at most 1048576)");
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 99999999999999999999999\n3o!"),
                          "line 1, column 12: the pattern height"));
  EXPECT_TRUE(starts_with(rle_error("x = 3\n3o!"), "line 1, column 1: the header has no 'y = height'"));
  EXPECT_TRUE(starts_with(rle_error("y = 3\n3o!"), "line 1, column 1: missing RLE header"));
  EXPECT_TRUE(starts_with(rle_error("x = 3 y = 3\n3o!"), "line 1, column 7: unexpected 'y' in the header"));
  EXPECT_TRUE(starts_with(rle_error("x = , y = 3\n3o!"), "line 1, column 5: expected a number"));
  EXPECT_TRUE(starts_with(rle_error("x 3, y = 3\n3o!"), "line 1, column 3: expected '='"));
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 3, x = 4\n3o!"), "line 1, column 15: 'x' given twice"));
  EXPECT_TRUE(
      starts_with(rle_error("x = 3, y = 3, colour = red\n3o!"), "line 1, column 15: unknown header field"));
  // A bad rule is located in the header line.
  EXPECT_TRUE(
      starts_with(rle_error("x = 3, y = 3, rule = B39/S23\n3o!"), "line 1, column 24: bad rule: neighbour"))
      << rle_error("x = 3, y = 3, rule = B39/S23\n3o!");
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 3, rule = B3/S23:P8,8\n3o!"),
                          "line 1, column 29: bad rule: topology 'P'"))
      << rle_error("x = 3, y = 3, rule = B3/S23:P8,8\n3o!");
}

TEST(Rle, MissingHeaderIsAnError) {
  EXPECT_TRUE(starts_with(rle_error("#N Glider\nbo$2bo$3o!"), "line 2, column 1: missing RLE header"));
  EXPECT_TRUE(starts_with(rle_error(""), "line 1, column 1: missing RLE header"));
  EXPECT_TRUE(starts_with(rle_error("#C only comments\n#C here\n"), "line 2, column 1: missing RLE header"));
}

TEST(Rle, CellsOutsideTheBoxAreLocatedErrors) {
  EXPECT_EQ(rle_error("x = 2, y = 2\nobo!"),
            "line 2, column 3: live cell at (2, 0) is outside the header's 2 x 2 box");
  EXPECT_EQ(rle_error("x = 2, y = 2\no$o$o!"),
            "line 2, column 5: live cell at (0, 2) is outside the header's 2 x 2 box");
  EXPECT_EQ(rle_error("x = 2, y = 2\n3o!"),
            "line 2, column 2: live cell at (2, 0) is outside the header's 2 x 2 box");
  // A zero-size header with cells.
  EXPECT_TRUE(starts_with(rle_error("x = 0, y = 0\no!"), "line 2, column 1: live cell at (0, 0) is outside"));
}

TEST(Rle, ADanglingCountIsAnError) {
  EXPECT_TRUE(starts_with(rle_error("x = 3, y = 1\n2o\n12"), "line 3, column 1: run count at the end"));
}

TEST(Rle, HostileInputsTakeLinearTime) {
  // A million-wide empty box and a long text of huge dead runs and row skips: no per-cell work.
  std::string text = "x = 1048576, y = 1048576\n";
  for (int i = 0; i < 100000; ++i) text += "1048576b1048576$";
  text += "!";
  const ls::Pattern p = ls::parse_rle(text);
  EXPECT_TRUE(p.cells.empty());
  // Full rows of a huge box are accepted and produce exactly the cells asked for.
  EXPECT_EQ(ls::parse_rle("x = 1048576, y = 2\n1048576o$1048576o!").cells.size(), std::size_t{2} << 20);
}

TEST(Cells, PlaintextWithCommentsAndShortRows) {
  const ls::Pattern p = ls::parse_cells("!Name: Glider\n!A spaceship.\n!\n.O\n..O\r\nOOO\n");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"A spaceship.", ""}));
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  EXPECT_EQ(p.cells, kGlider);
  EXPECT_EQ(p.rule_text, "");
}

TEST(Cells, StarIsLiveAndBlankLinesAreDeadRows) {
  const ls::Pattern p = ls::parse_cells("*..\n\n..*....\n\n\n");
  EXPECT_EQ(p.cells, cells_of({{0, 0}, {2, 2}}));
  // Width is the longest row, dots included; blank lines at the end are not rows.
  EXPECT_EQ(p.width, 7);
  EXPECT_EQ(p.height, 3);
}

TEST(Cells, OtherCharactersAreLocatedErrors) {
  EXPECT_TRUE(starts_with(cells_error("!c\n.O.\n.Ox\n"), "line 3, column 3: unexpected 'x'"));
  EXPECT_TRUE(starts_with(cells_error(".O.\no\n"), "line 2, column 1: unexpected 'o'"));
  EXPECT_TRUE(starts_with(cells_error(".O. .O\n"), "line 1, column 4: unexpected ' '"));
}

TEST(Pattern, ChoosesTheFormatByExtensionThenContent) {
  EXPECT_EQ(ls::parse_pattern("x = 3, y = 3\nbo$2bo$3o!").cells, kGlider);
  EXPECT_EQ(ls::parse_pattern("#N G\nx = 3, y = 3\nbo$2bo$3o!").cells, kGlider);
  EXPECT_EQ(ls::parse_pattern("!Name: G\n.O\n..O\nOOO\n").cells, kGlider);
  EXPECT_EQ(ls::parse_pattern(".O\n..O\nOOO\n").cells, kGlider);
  EXPECT_EQ(ls::parse_pattern("\n\n  x = 3, y = 3\nbo$2bo$3o!").cells, kGlider);
  // The extension wins, case-insensitively: a .cells name is parsed as .cells and fails on RLE.
  EXPECT_EQ(ls::parse_pattern("x = 3, y = 3\nbo$2bo$3o!", "dir/a.RLE").cells, kGlider);
  EXPECT_EQ(ls::parse_pattern(".O\n..O\nOOO\n", "g.Cells").cells, kGlider);
  EXPECT_THROW(ls::parse_pattern("x = 3, y = 3\nbo$2bo$3o!", "g.cells"), ls::InputError);
  EXPECT_THROW(ls::parse_pattern(".O\n..O\nOOO\n", "g.rle"), ls::InputError);
  // Before a final .gz, the name's own extension chooses.
  EXPECT_EQ(ls::parse_pattern(".O\n..O\nOOO\n", "g.cells.GZ").cells, kGlider);
  EXPECT_THROW(ls::parse_pattern(".O\n..O\nOOO\n", "g.rle.gz"), ls::InputError);
  // Other formats get a message that names them rather than a parse error.
  EXPECT_TRUE(
      starts_with(error_of([](std::string_view t) { return ls::parse_pattern(t); }, "#Life 1.06\n0 0\n"),
                  "line 1, column 1: Life 1.05/1.06 files are not supported"));
}

TEST(Pattern, FileNamesAPatternListOffers) {
  for (const char* name : {"glider.rle", "g.cells", "dir/G.RLE", "glider.rle.gz", "g.cells.gz", "g.Cells.Gz"})
    EXPECT_TRUE(ls::is_pattern_file_name(name)) << name;
  for (const char* name : {"glider.txt", "g.gz", "rle", "g.rle.bz2", "g.lif", "g.rle.gz.txt", ""})
    EXPECT_FALSE(ls::is_pattern_file_name(name)) << name;
}

TEST(WriteRle, GolliesLayout) {
  ls::Pattern p;
  p.name = "Glider";
  p.comments = {"first", ""};
  p.width = 3;
  p.height = 3;
  p.cells = kGlider;
  EXPECT_EQ(ls::write_rle(p, "B3/S23"), "#N Glider\n#C first\n#C\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  p.pos = ls::Cell{-1, 20};
  p.name.clear();
  p.comments.clear();
  EXPECT_EQ(ls::write_rle(p, "B36/S23"), "#CXRLE Pos=-1,20\nx = 3, y = 3, rule = B36/S23\nbo$2bo$3o!\n");
  EXPECT_EQ(ls::write_rle(p, ""), "#CXRLE Pos=-1,20\nx = 3, y = 3\nbo$2bo$3o!\n");
}

TEST(WriteRle, EmptyRowsAsCountsAndNoTrailingDeadCells) {
  ls::Pattern p;
  p.width = 10;
  p.height = 20;
  p.cells = cells_of({{3, 2}, {4, 2}, {9, 2}, {0, 7}, {2, 8}});
  EXPECT_EQ(ls::write_rle(p, "B3/S23"), "x = 10, y = 20, rule = B3/S23\n2$3b2o4bo5$o$2bo!\n");
  p.cells.clear();
  EXPECT_EQ(ls::write_rle(p, "B3/S23"), "x = 10, y = 20, rule = B3/S23\n!\n");
}

TEST(WriteRle, SortsCellsBuiltByHandAndRefusesCellsOutsideTheBox) {
  ls::Pattern p;
  p.width = 3;
  p.height = 3;
  p.cells = cells_of({{2, 2}, {1, 0}, {0, 2}, {2, 1}, {1, 2}, {1, 0}});
  EXPECT_EQ(ls::parse_rle(ls::write_rle(p, "")).cells, kGlider);
  p.cells.push_back(ls::Cell{3, 0});
  EXPECT_THROW(ls::write_rle(p, ""), std::invalid_argument);
}

TEST(WriteRle, LinesStayWithin70Columns) {
  // A checkerboard row gives the most tokens per cell.
  ls::Pattern p;
  p.width = 1000;
  p.height = 7;
  for (int y = 0; y < p.height; y += 3)
    for (int x = y % 2; x < p.width; x += 1 + (x % 5)) p.cells.push_back(ls::Cell{x, y});
  const std::string text = ls::write_rle(p, "B3/S23");
  std::istringstream lines(text);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 70u) << line;
    ++n;
  }
  EXPECT_GT(n, 10);
  EXPECT_EQ(ls::parse_rle(text).cells, p.cells);
}

struct Bundled {
  const char* file;
  const char* name;
  int width;
  int height;
  std::size_t population;
};
// Populations and boxes as LifeWiki gives them.
const Bundled kBundled[] = {
    {"glider.rle", "Glider", 3, 3, 5},
    {"lwss.rle", "Lightweight spaceship", 5, 4, 9},
    {"blinker.rle", "Blinker", 3, 1, 3},
    {"pulsar.rle", "Pulsar", 13, 13, 48},
    {"pentadecathlon.rle", "Pentadecathlon", 10, 3, 12},
    {"gosper-gun.rle", "Gosper glider gun", 36, 9, 36},
    {"r-pentomino.rle", "R-pentomino", 3, 3, 5},
    {"acorn.rle", "Acorn", 7, 3, 7},
    {"diehard.rle", "Die hard", 8, 3, 7},
    {"block.rle", "Block", 2, 2, 4},
    {"beehive.rle", "Beehive", 4, 3, 6},
    {"loaf.rle", "Loaf", 4, 4, 7},
};

fs::path pattern_dir() { return fs::path(LS_SOURCE_DIR) / "assets" / "patterns"; }

TEST(BundledPatterns, NamePopulationBoxAndRule) {
  for (const Bundled& b : kBundled) {
    SCOPED_TRACE(b.file);
    const ls::Pattern p = ls::load_pattern_file((pattern_dir() / b.file).string());
    EXPECT_EQ(p.name, b.name);
    EXPECT_FALSE(p.comments.empty());
    EXPECT_EQ(p.width, b.width);
    EXPECT_EQ(p.height, b.height);
    EXPECT_EQ(p.cells.size(), b.population);
    EXPECT_EQ(ls::parse_rule(p.rule_text), ls::Rule::life());
    // The box is tight: some live cell touches each of its four sides.
    int min_x = b.width, min_y = b.height, max_x = -1, max_y = -1;
    for (const ls::Cell& c : p.cells) {
      min_x = std::min(min_x, c.x);
      min_y = std::min(min_y, c.y);
      max_x = std::max(max_x, c.x);
      max_y = std::max(max_y, c.y);
    }
    EXPECT_EQ(min_x, 0);
    EXPECT_EQ(min_y, 0);
    EXPECT_EQ(max_x, b.width - 1);
    EXPECT_EQ(max_y, b.height - 1);
  }
}

TEST(BundledPatterns, ExactCellsOfTheSmallOnes) {
  const auto load = [](const char* f) { return ls::load_pattern_file((pattern_dir() / f).string()).cells; };
  EXPECT_EQ(load("glider.rle"), kGlider);
  EXPECT_EQ(load("blinker.rle"), cells_of({{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(load("block.rle"), cells_of({{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
  EXPECT_EQ(load("r-pentomino.rle"), cells_of({{1, 0}, {2, 0}, {0, 1}, {1, 1}, {1, 2}}));
  EXPECT_EQ(load("lwss.rle"),
            cells_of({{1, 0}, {4, 0}, {0, 1}, {0, 2}, {4, 2}, {0, 3}, {1, 3}, {2, 3}, {3, 3}}));
}

TEST(BundledPatterns, RoundTripThroughWriteRle) {
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(pattern_dir())) {
    if (entry.path().extension() != ".rle") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const ls::Pattern p = ls::load_pattern_file(entry.path().string());
    const std::string text = ls::write_rle(p, p.rule_text);
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) EXPECT_LE(line.size(), 70u) << line;
    const ls::Pattern q = ls::parse_rle(text);
    EXPECT_EQ(q.name, p.name);
    EXPECT_EQ(q.comments, p.comments);
    EXPECT_EQ(q.rule_text, p.rule_text);
    EXPECT_EQ(q.width, p.width);
    EXPECT_EQ(q.height, p.height);
    EXPECT_EQ(q.cells, p.cells);
    // The bundled files are exactly as write_rle (and Golly) lays them out, and writing is a fixed point.
    EXPECT_EQ(text, read_file(entry.path()));
    EXPECT_EQ(ls::write_rle(q, q.rule_text), text);
    ++checked;
  }
  EXPECT_GE(checked, 12u);
}

// A scratch directory removed at the end of the test.
class PatternFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ls_test_pattern_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }
  std::string load_error(const std::string& path) {
    try {
      ls::load_pattern_file(path);
    } catch (const ls::InputError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(PatternFiles, LoadsByExtensionAndContent) {
  EXPECT_EQ(ls::load_pattern_file(write("g.rle", "x = 3, y = 3\nbo$2bo$3o!\n")).cells, kGlider);
  EXPECT_EQ(ls::load_pattern_file(write("g.cells", ".O\n..O\nOOO\n")).cells, kGlider);
  EXPECT_EQ(ls::load_pattern_file(write("g.txt", "!Name: g\n.O\n..O\nOOO\n")).cells, kGlider);
}

TEST_F(PatternFiles, RefusalsNameThePath) {
  const std::string missing = (dir_ / "nope.rle").string();
  EXPECT_EQ(load_error(missing), missing + ": no such file");
  EXPECT_EQ(load_error(dir_.string()), dir_.string() + ": is a directory, not a pattern file");
  const std::string empty = write("empty.rle", "");
  EXPECT_EQ(load_error(empty), empty + ": empty file, not a pattern");
  const std::string binary = write("bin.rle", std::string("x = 3, y = 3\n\0\x01\x02", 16));
  EXPECT_EQ(load_error(binary), binary + ": binary file, not a pattern (RLE or .cells text)");
  const std::string bad = write("bad.rle", "x = 3, y = 3\nbo$2bQ$3o!\n");
  EXPECT_TRUE(starts_with(load_error(bad), bad + ": line 2, column 6: cell state 'Q'")) << load_error(bad);
  if (fs::exists("/dev/null")) {
    EXPECT_EQ(load_error("/dev/null"), "/dev/null: not a regular file");
  }
}

TEST_F(PatternFiles, HugeFilesAreRefusedBeforeReading) {
  const std::string path = (dir_ / "huge.rle").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << "x = 3, y = 3\n";
  }
  fs::resize_file(path, (std::uintmax_t{64} << 20) + 1);  // sparse: no disk space taken
  const std::string e = load_error(path);
  EXPECT_TRUE(starts_with(e, path + ": file too large for a pattern")) << e;
}

// Golly reads and writes gzipped patterns; they load to the same cells as the plain files.
TEST_F(PatternFiles, GzippedFilesLoadToTheSameCellsAsPlainOnes) {
  const std::string rle = "#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
  const ls::Pattern plain = ls::load_pattern_file(write("g.rle", rle));
  const ls::Pattern packed = ls::load_pattern_file(write("g.rle.gz", gzip(rle)));
  EXPECT_EQ(packed.cells, kGlider);
  EXPECT_EQ(packed.cells, plain.cells);
  EXPECT_EQ(packed.name, "Glider");
  EXPECT_EQ(packed.rule_text, "B3/S23");
  EXPECT_EQ(ls::load_pattern_file(write("g.cells.gz", gzip("!Name: g\n.O\n..O\nOOO\n"))).cells, kGlider);
  // The content is what counts: gzip data without .gz in the name is inflated too.
  EXPECT_EQ(ls::load_pattern_file(write("g.rle", gzip(rle))).cells, kGlider);
  // So are several members in a row, as `cat a.gz b.gz` makes (the text split mid-line).
  EXPECT_EQ(ls::load_pattern_file(write("two.rle.gz", gzip(rle.substr(0, 20)) + gzip(rle.substr(20)))).cells,
            kGlider);
  // A parse error inside names the file and the line in the inflated text.
  const std::string bad = write("bad.rle.gz", gzip("x = 3, y = 3\nbo$2bQ$3o!\n"));
  EXPECT_TRUE(starts_with(load_error(bad), bad + ": line 2, column 6: cell state 'Q'")) << load_error(bad);
}

TEST_F(PatternFiles, DamagedGzipFilesAreRefusedNamingThePath) {
  const std::string packed = gzip("x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  const auto refused = [&](const std::string& name, const std::string& content, const std::string& why) {
    const std::string path = write(name, content);
    const std::string e = load_error(path);
    EXPECT_TRUE(starts_with(e, path + ": " + why)) << name << ": " << e;
  };
  // Cut short: in the compressed data, and in the 8-byte trailer (CRC-32 and length).
  refused("cut.rle.gz", packed.substr(0, packed.size() / 2), "truncated gzip data");
  refused("cut-trailer.rle.gz", packed.substr(0, packed.size() - 3), "truncated gzip data");
  refused("header-only.rle.gz", packed.substr(0, 10), "truncated gzip data");
  // A changed byte in the text's checksum; a block of garbage after a valid header.
  std::string bad_crc = packed;
  bad_crc[bad_crc.size() - 8] ^= 0x55;
  refused("crc.rle.gz", bad_crc, "corrupt gzip data (incorrect data check)");
  refused("garbage.rle.gz", packed.substr(0, 10) + std::string(64, '\xff'), "corrupt gzip data");
  refused("tail.rle.gz", packed + "junk", "corrupt gzip data (4 bytes after the end of the compressed data)");
  // A .gz that is not gzip at all, and gzip of binary or of nothing.
  refused("plain.rle.gz", "x = 3, y = 3\nbo$2bo$3o!\n", "not gzip data");
  refused("bin.rle.gz", gzip(std::string("x = 3\0\x01", 7)), "binary file, not a pattern");
  refused("empty.rle.gz", gzip(""), "gzip data of an empty file, not a pattern");
}

// A gzip bomb: 4 GiB of text in a file of a few MiB. It is refused once the inflated text passes the
// limit that plain files have (64 MiB), so the memory taken stays near that limit.
TEST_F(PatternFiles, AGzipBombIsRefusedWhileInflating) {
  const std::string member = gzip(std::string(std::size_t{8} << 20, '.'));  // 8 MiB per member
  std::string bomb;
  for (int i = 0; i < 512; ++i) bomb += member;
  const std::string path = write("bomb.cells.gz", bomb);
  ASSERT_LT(fs::file_size(path), std::uintmax_t{64} << 20);
  const std::string e = load_error(path);
  EXPECT_EQ(e, path + ": gzip data inflates to more than 64 MiB, too large for a pattern");
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_SELF, &usage), 0);
  EXPECT_LT(usage.ru_maxrss, 1L << 20) << "peak resident KiB";  // far below the 4 GiB it holds
  // Exactly the limit is still accepted as far as size goes (its text is then parsed: 64 MiB of one row
  // is too long a row for .cells).
  const std::string at_limit =
      write("limit.cells.gz", gzip(std::string((std::size_t{64} << 20) - 1, '.') + "\n"));
  EXPECT_TRUE(starts_with(load_error(at_limit), at_limit + ": line 1")) << load_error(at_limit);
}

}  // namespace
