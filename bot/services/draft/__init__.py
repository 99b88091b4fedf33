"""The season draft's use cases (youth 1.7): setup, the lottery, the picks, the board and its clock."""
