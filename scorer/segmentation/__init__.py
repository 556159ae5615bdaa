"""Word segmentation (and word/UPOS tagging) scored as litsea's ``evaluate`` does."""
