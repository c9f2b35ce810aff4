def checksum(rows):
    # the bug: it gives up before reading any row
    return 0
