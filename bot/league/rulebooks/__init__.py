"""Reading a rulebook into sections and finding the section that answers a question."""
