#pragma once
// Everything the core offers, for programs that want all of it.
#include "banklab/access.hpp"
#include "banklab/analysis.hpp"
#include "banklab/diagnostic.hpp"
#include "banklab/dtype.hpp"
#include "banklab/explain.hpp"
#include "banklab/hardware.hpp"
#include "banklab/json.hpp"
#include "banklab/layout.hpp"
#include "banklab/presets.hpp"
#include "banklab/scenario.hpp"
#include "banklab/solve.hpp"
#include "banklab/swizzle.hpp"
