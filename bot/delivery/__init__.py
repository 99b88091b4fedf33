"""What leaves for Discord outside an interaction: the scheduler, the outbox's courier, its pace and claims."""
