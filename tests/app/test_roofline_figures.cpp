// The roofline view's figures (app/roofline_figures.hpp): each GPU measured once on a thread of its
// own, no point until its limits are known, split lattices against their GPUs' summed roofs, and a
// note for what has no point.
#include "app/roofline_figures.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <thread>

namespace ls::app {
namespace {

/// Instance i runs on devices_[i] (empty: host memory).
class FakePlacement final : public DevicePlacement {
 public:
  explicit FakePlacement(std::vector<std::vector<int>> devices) : devices_(std::move(devices)) {}
  int cuda_device() const override { return 0; }
  std::vector<int> instance_devices(std::size_t i) const override { return devices_.at(i); }
  void add_moved(const InstanceSpec&, std::uint64_t, std::uint64_t) override {}

 private:
  std::vector<std::vector<int>> devices_;
};

ui::PanelModel model_of(std::size_t n) {
  ui::PanelModel m;
  m.settings.generations_per_frame = 16;
  for (std::size_t i = 0; i < n; ++i) {
    InstanceStatus s;
    s.variant = Variant::bitpacked;
    s.generations_per_launch = 16;
    s.cups = 1e12 * static_cast<double>(i + 1);
    m.statuses.push_back(s);
  }
  return m;
}

/// Fills until no measurement is pending (at most 10 s).
void fill_settled(RooflineFigures& f, const DevicePlacement& p, ui::PanelModel& m) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    f.fill(p, m);
    if (m.roofline_note.find("measuring") == std::string::npos) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } while (std::chrono::steady_clock::now() < end);
}

TEST(RooflineFigures, NoPointUntilItsGpuIsMeasuredThenEachGpuOnce) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> calls{0};
  RooflineFigures figures([&](int device) -> std::optional<GpuLimits> {
    ++calls;
    released.wait();
    return GpuLimits{100, 1e9, 1000.0 * (device + 1)};
  });
  const FakePlacement placement({{0}, {1}});
  ui::PanelModel m = model_of(2);
  figures.fill(placement, m);
  EXPECT_TRUE(m.roofline.empty());
  EXPECT_NE(m.roofline_note.find("measuring"), std::string::npos) << m.roofline_note;
  release.set_value();
  fill_settled(figures, placement, m);
  ASSERT_EQ(m.roofline.size(), 2u);
  EXPECT_EQ(m.roofline_note, "");
  EXPECT_EQ(m.roofline[1].limits.copy_gbps, 2000.0);
  EXPECT_DOUBLE_EQ(m.roofline[1].point.cups, 2e12);
  EXPECT_DOUBLE_EQ(m.roofline[1].point.issue_roof,
                   100.0 * 64 * 1e9 / kernel_cost(Variant::bitpacked).alu_per_cell_life);
  for (int i = 0; i < 5; ++i) figures.fill(placement, m);
  EXPECT_EQ(calls.load(), 2);  // once per GPU, however often the panel asks
}

TEST(RooflineFigures, ALaunchMovesItsBytesForTheGenerationsAFrameAsksOnly) {
  RooflineFigures figures([](int) -> std::optional<GpuLimits> { return GpuLimits{100, 1e9, 1000}; });
  const FakePlacement placement(std::vector<std::vector<int>>{{0}});
  ui::PanelModel m = model_of(1);
  m.settings.generations_per_frame = 1;  // k = 16 but one generation a frame: one a launch
  fill_settled(figures, placement, m);
  ASSERT_EQ(m.roofline.size(), 1u);
  EXPECT_DOUBLE_EQ(m.roofline[0].point.bytes_per_cell, 0.25);
  m.settings.generations_per_frame = 64;  // launches of k = 16
  figures.fill(placement, m);
  ASSERT_EQ(m.roofline.size(), 1u);
  EXPECT_DOUBLE_EQ(m.roofline[0].point.bytes_per_cell, 0.25 / 16);
  m.settings.generations_per_frame = 20;  // launches of 16 and 4
  figures.fill(placement, m);
  ASSERT_EQ(m.roofline.size(), 1u);
  EXPECT_DOUBLE_EQ(m.roofline[0].point.bytes_per_cell, 0.25 / 10);
}

TEST(RooflineFigures, ASplitLatticeStandsUnderItsGpusSummedRoofs) {
  RooflineFigures figures([](int device) -> std::optional<GpuLimits> {
    return GpuLimits{100, device == 0 ? 2e9 : 1.5e9, 1000};
  });
  const FakePlacement placement({{0, 1}});
  ui::PanelModel m = model_of(1);
  fill_settled(figures, placement, m);
  ASSERT_EQ(m.roofline.size(), 1u);
  const GpuLimits& g = m.roofline[0].limits;
  EXPECT_EQ(g.sms, 200);
  EXPECT_EQ(g.sm_clock_hz, 1.5e9);  // the slower clock counts for both
  EXPECT_EQ(g.copy_gbps, 2000.0);
  EXPECT_EQ(m.roofline[0].devices, (std::vector<int>{0, 1}));
}

TEST(RooflineFigures, HostInstancesAndUnreadableGpusHaveNoPointAndANote) {
  RooflineFigures figures([](int device) -> std::optional<GpuLimits> {
    if (device == 1) return std::nullopt;
    return GpuLimits{100, 1e9, 1000};
  });
  {
    const FakePlacement placement({{0}, {1}});
    ui::PanelModel m = model_of(2);
    fill_settled(figures, placement, m);
    ASSERT_EQ(m.roofline.size(), 1u);
    EXPECT_EQ(m.roofline[0].instance, 0u);
    EXPECT_NE(m.roofline_note.find("could not be read"), std::string::npos) << m.roofline_note;
  }
  {
    const FakePlacement placement({{}, {}});
    ui::PanelModel m = model_of(2);
    fill_settled(figures, placement, m);
    EXPECT_TRUE(m.roofline.empty());
    EXPECT_NE(m.roofline_note.find("host memory"), std::string::npos) << m.roofline_note;
  }
}

}  // namespace
}  // namespace ls::app
