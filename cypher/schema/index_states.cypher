// State of every index (ONLINE, POPULATING, FAILED).
SHOW INDEXES YIELD name, state, populationPercent, type
RETURN name, state, populationPercent, type
