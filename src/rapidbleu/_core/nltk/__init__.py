"""NLTK's BLEU in the core: its reading of weights and smoothing (``nltk_style``), its input
checks and token statistics (``nltk_inputs``), ``SmoothingFunction`` (``nltk_smoothing``), sentence
scores from statistics (``nltk_scores``) and the batch entry points (``nltk_batch``).  Imports
nothing."""
