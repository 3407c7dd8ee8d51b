# loader: filled in by its issue
