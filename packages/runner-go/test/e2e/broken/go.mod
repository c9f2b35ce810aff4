module example.com/broken

go 1.21
