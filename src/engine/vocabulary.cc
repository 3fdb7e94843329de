#include "vocabulary.h"

#include "expansions/vocabulary_rows.h"
#include "state.h"

namespace carc {

namespace {

template <class T, size_t A, size_t B>
constexpr std::array<T, A + B> concat(const std::array<T, A>& a, const std::array<T, B>& b) {
  std::array<T, A + B> r{};
  for (size_t i = 0; i < A; ++i) r[i] = a[i];
  for (size_t i = 0; i < B; ++i) r[A + i] = b[i];
  return r;
}

constexpr std::array<EventKindInfo, 4> kBaseEventKinds = {{
    {"road", "road", EventStage::Placement, "board"},
    {"city", "city", EventStage::Placement, "board"},
    {"monastery", "monastery", EventStage::Placement, "board"},
    {"farm", "farm", EventStage::Placement, "board"},
}};

constexpr std::array<ScoreCategory, 4> kBaseScoreCategories = {{
    {"road", "Roads"},
    {"city", "Cities"},
    {"monastery", "Monasteries"},
    {"farm", "Fields"},
}};

}  // namespace

// A module adding rows raises these sizes (vocabulary.h).
const std::array<EventKindInfo, 14> kEventKinds = concat(kBaseEventKinds, kModuleEventKinds);
const std::array<ScoreCategory, 7> kScoreCategories = concat(kBaseScoreCategories, kModuleScoreCategories);

const EventKindInfo* event_kind(const std::string& name) {
  for (const EventKindInfo& k : kEventKinds)
    if (name == k.name) return &k;
  return nullptr;
}

const char* score_kind_name(Kind k) { return k == Kind::Field ? "farm" : kind_name(k); }

const char* phase_name(const State& s) {
  return kPhaseNames[size_t(s.phase())];  // indexed by Phase
}

nlohmann::json vocabulary_json() {
  using json = nlohmann::json;  // every list is in order
  json j;
  json features = json::array();
  for (int k = 0; k < kNumKinds; ++k)
    features.push_back({{"name", kind_name(Kind(k))}, {"score_kind", score_kind_name(Kind(k))}});
  j["feature_kinds"] = features;
  json cats = json::array();
  for (const ScoreCategory& c : kScoreCategories) cats.push_back({{"name", c.name}, {"label", c.label}});
  j["score_categories"] = cats;
  j["phases"] = std::vector<std::string>(kPhaseNames.begin(), kPhaseNames.end());
  json kinds = json::array();
  for (const EventKindInfo& k : kEventKinds)
    kinds.push_back({{"name", k.name},
                     {"category", k.category[0] ? json(k.category) : json(nullptr)},
                     {"stage", kEventStageNames[size_t(k.stage)]},
                     {"where", k.where},
                     {"scores", k.category[0] != 0}});
  j["event_kinds"] = kinds;
  j["event_stages"] = kEventStageNames;
  modules_vocabulary_json(j);
  j["rotations"] = {0, 90, 180, 270};
  return j;
}

}  // namespace carc
