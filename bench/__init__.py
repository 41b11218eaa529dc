"""The benchmark behind ``make bench``: fill, measure, report. Never part of CI's verdict."""
