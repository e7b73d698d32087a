#include "ops/loop_nest.h"
// Placeholder until the op-semantics work lands.
