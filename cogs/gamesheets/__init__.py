"""Game sheets, goals and the late-start prompts."""
