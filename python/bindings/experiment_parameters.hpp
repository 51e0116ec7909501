// The keyword arguments of redist.simulate() as the parameters of an experiment (ExperimentSpec):
// whatever the experiment's command takes as a flag is a keyword, checked by the schema that checks
// the flag, so that a parameter added to the experiment is a keyword of Python with no change here.
#pragma once

#include <pybind11/pybind11.h>

#include "redist/experiments/experiment_schema.hpp"

namespace redist::python {

/// The values of `given` (keyword -> int or str) as the run's Params. A str reads as the same text on
/// the command line would (a whole number when it reads as one). Throws std::invalid_argument with
/// the schema's message for a value it refuses ("parameter 'r' must be a positive whole number, got
/// 0"), and for a keyword the experiment's command does not take.
Params command_parameters(const ExperimentSpec& spec, const pybind11::dict& given);

}  // namespace redist::python
