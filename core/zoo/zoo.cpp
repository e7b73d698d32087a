// Placeholder until the model zoo work lands.
