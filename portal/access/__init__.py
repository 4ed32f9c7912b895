"""Who may open which page (issue 40, 4): the guards every area's views use and the Games a
staff member is scoped to. Below the areas whose pages it guards, reading only models, so
that no view imports upward to check access."""
