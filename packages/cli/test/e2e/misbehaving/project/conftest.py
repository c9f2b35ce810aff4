# puts the project folder on sys.path, so the tests import calc
