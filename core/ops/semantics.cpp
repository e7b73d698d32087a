#include "ops/semantics.h"
// Placeholder until the op-semantics work lands.
