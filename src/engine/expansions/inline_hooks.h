// The modules' inline hooks of the hot paths (State member functions and constants), for
// state.cc: one include, so that the base turn names no module's header.
#pragma once

#include "fortune_teller.h"
#include "fruit_trees_sample.h"
#include "options.h"
#include "wheel_of_fortune.h"
