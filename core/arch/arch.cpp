// Placeholder until the architecture work lands.
