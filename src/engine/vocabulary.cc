#include "vocabulary.h"

#include "state.h"

namespace carc {

const std::array<const char*, kEventStages> kEventStageNames = {"pig", "wheel-event", "plague", "crown", "placement", "final"};

const std::array<EventKindInfo, 14> kEventKinds = {{
    {"road", "road", EventStage::Placement, "board"},
    {"city", "city", EventStage::Placement, "board"},
    {"monastery", "monastery", EventStage::Placement, "board"},
    {"farm", "farm", EventStage::Placement, "board"},
    {"tent", "tent", EventStage::Placement, "board"},
    {"fruit", "fruit", EventStage::Placement, "board"},
    {"fortuna", "wheel", EventStage::WheelEvent, "wheel"},
    {"taxes", "wheel", EventStage::WheelEvent, "board"},
    {"famine", "wheel", EventStage::WheelEvent, "board"},
    {"storm", "wheel", EventStage::WheelEvent, "wheel"},
    {"inquisition", "wheel", EventStage::WheelEvent, "board"},
    {"crown", "wheel", EventStage::Crown, "wheel"},
    {"pig", "", EventStage::Pig, "wheel"},
    {"plague", "", EventStage::Plague, "board"},
}};

const std::array<ScoreCategory, 7> kScoreCategories = {{
    {"road", "Roads"},
    {"city", "Cities"},
    {"monastery", "Monasteries"},
    {"farm", "Fields"},
    {"tent", "Tents"},
    {"fruit", "Fruit"},
    {"wheel", "Wheel"},
}};

const EventKindInfo* event_kind(const std::string& name) {
  for (const EventKindInfo& k : kEventKinds)
    if (name == k.name) return &k;
  return nullptr;
}

const char* score_kind_name(Kind k) { return k == Kind::Field ? "farm" : kind_name(k); }

const char* phase_name(const State& s) {
  if (s.is_terminal()) return kPhaseNames[size_t(Phase::Terminal)];
  if (s.is_chance()) return kPhaseNames[size_t(Phase::Chance)];
  return kPhaseNames[size_t(s.phase() == Phase::Plague ? Phase::Plague : Phase::Place)];
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
  json fruits = json::array();
  for (const char* f : kFruitNames) fruits.push_back(f);
  j["fruit_kinds"] = fruits;
  j["fruit_sale_points"] = kFruitSalePoints;
  j["fruit_token_values"] = kFruitTokenValues;  // what a harvest may score
  j["fruit_held_token_points"] = kFruitHeldTokenPoints;  // each token held at the end
  json wheel = json::array();
  for (const char* w : kWheelEventNames) wheel.push_back(w);
  j["wheel_events"] = wheel;
  j["rotations"] = {0, 90, 180, 270};
  return j;
}

}  // namespace carc
