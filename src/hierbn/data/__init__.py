"""Data layer: registry, checksummed download through mirrors, readers, preprocessing."""
