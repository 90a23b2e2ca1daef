module example.com/readme

go 1.26
