"""Final results per event, and the standings the Games' awards make of them."""
