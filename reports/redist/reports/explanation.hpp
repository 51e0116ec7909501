// What `redist explain` shows: every candidate way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q, or a
// whole matrix between two ScaLAPACK descriptors, its
// phases as the prediction prices them on a platform's machine model (redist/predict/prediction.hpp),
// the one `auto` picks, and with a simulation each candidate's simulated total beside its prediction;
// as a Markdown table or JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/indexing/matrix_copy.hpp"
#include "redist/predict/prediction.hpp"

namespace redist {

/// The redistribution asked about, on which platform, and which candidates.
struct ExplainRequest {
  std::string platform;
  Index P = 0, Q = 0, r = 1, s = 1, N = 0, elem_bytes = 8;  ///< 1-D
  std::optional<MatrixCopy> matrix;  ///< 2-D: a whole matrix between two descriptors (P, Q, r, s, N unused)
  Index hosts = 0;  ///< hosts the ranks run on in turn; 0: one per rank
  std::string placement = "shared";  ///< shared or disjoint
  CandidateRequest request{kAutoName, kAutoName, kAutoName};
  bool simulate = false;  ///< also simulate every candidate (phantom payload)

  Layout source() const;
  Layout dest() const;
};

struct ExplainedCandidate {
  Prediction predicted;
  double simulated_total = -1;  ///< < 0: not simulated
};

struct Explanation {
  std::vector<ExplainedCandidate> rows;
  std::size_t choice = 0;  ///< the row `auto` picks
  /// ScaLAPACK's pdgemr2d on the same 2-D pair (column-major storage), priced by the same model:
  /// shown beside redist's candidates, never chosen by auto.
  std::optional<ExplainedCandidate> pdgemr2d;
  double seconds = 0;      ///< what predicting every candidate took
};

/// The candidates as a Markdown table (seconds), then the choice.
std::string explanation_text(const ExplainRequest& question, const Explanation& answer);

/// {"platform":..,"P":..,..,"candidates":[{"indexing":..,"schedule":..,"relabel":..,"predicted":{..}}],"choice":..}.
nlohmann::ordered_json explanation_json(const ExplainRequest& question, const Explanation& answer);

}  // namespace redist
