module github.com/gcplay/gcplay

go 1.26
