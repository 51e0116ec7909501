// Closed-form message sizes of a symmetric redistribution, and Lemma 3 of paper 002: of the S
// elements p sends q under TR, SRA leaves out those whose twin q holds in its source lines.
#pragma once

#include "redist/symmetric/symmetric_problem.hpp"

namespace redist {

/// Lines whose source owner is p and destination owner is q (summed block by block of p).
Index lines_moved(const SymmetricProblem& problem, Index p, Index q);

/// Elements p sends q (p != q) by `method`; 0 when p == q (what stays is copied locally, not sent).
Index message_elements(const SymmetricProblem& problem, SymmetricMethod method, Index p, Index q);

/// Lemma 3: elements of the TR message p -> q (p != q) that SRA does not send, because q holds their
/// twins in its source lines: lines_moved(p, q) × (lines q holds at the source). This is exactly
/// S/P when P·x divides n, and within S·x/n of S/P otherwise.
Index sra_avoided_elements(const SymmetricProblem& problem, Index p, Index q);

}  // namespace redist
