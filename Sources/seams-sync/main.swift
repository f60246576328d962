print("seams-sync: not yet built")
