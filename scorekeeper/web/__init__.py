"""Server-rendered pages; they work without JavaScript."""
