"""Registration for a season: who may play where by age, and when fees are due."""
