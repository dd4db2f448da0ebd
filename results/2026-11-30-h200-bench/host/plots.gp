# addscope-bench plots; rerun with: gnuplot plots.gp (in this folder)
set terminal pngcairo size 1100,650 enhanced font 'sans,10'
set grid
set key outside right top
set logscale x 2
set format x '2^{%L}'
set yrange [0:*]

set output 'add_gbps_vs_size_float.png'
set title 'add float: GB/s vs size, OpenMP (Intel(R) Xeon(R) Processor), Kokkos 3.4.1' noenhanced
set xlabel 'n (elements)'
set ylabel 'GB/s (3 N sizeof(T) / median time)'
plot 'add_gbps_vs_size_float.dat' index 0 using 1:2 with linespoints title 'range' noenhanced, \
     'add_gbps_vs_size_float.dat' index 1 using 1:2 with linespoints title 'range:chunk=4096' noenhanced, \
     'add_gbps_vs_size_float.dat' index 2 using 1:2 with linespoints title 'range:ilp=1' noenhanced, \
     'add_gbps_vs_size_float.dat' index 3 using 1:2 with linespoints title 'range:ilp=2' noenhanced, \
     'add_gbps_vs_size_float.dat' index 4 using 1:2 with linespoints title 'range:ilp=4' noenhanced, \
     'add_gbps_vs_size_float.dat' index 5 using 1:2 with linespoints title 'range:ilp=8' noenhanced, \
     'add_gbps_vs_size_float.dat' index 6 using 1:2 with linespoints title 'range:ilp=16' noenhanced, \
     'add_gbps_vs_size_float.dat' index 7 using 1:2 with linespoints title 'range:pack' noenhanced, \
     'add_gbps_vs_size_float.dat' index 8 using 1:2 with linespoints title 'team:auto' noenhanced, \
     'add_gbps_vs_size_float.dat' index 9 using 1:2 with linespoints title 'blas' noenhanced, \
     'add_gbps_vs_size_float.dat' index 10 using 1:2 with linespoints title 'team grid (best point)' noenhanced, \
     'add_gbps_vs_size_float.dat' index 11 using 1:2 with linespoints dashtype 2 lw 2 title 'fastest copy reference' noenhanced

set output 'add_gbps_vs_team_float.png'
set title 'add float at n = 2^26: GB/s vs league size (one team size only: team_size_max = 16), OpenMP (Intel(R) Xeon(R) Processor), Kokkos 3.4.1' noenhanced
set xlabel 'league size L'
set ylabel 'GB/s'
set format x '%g'
plot 'add_gbps_vs_team_float.dat' index 0 using 1:2 with linespoints title 'T = 16' noenhanced
set format x '2^{%L}'

set output 'transfers_gbps_vs_size.png'
set title 'transfers: GB/s vs bytes, OpenMP (Intel(R) Xeon(R) Processor), Kokkos 3.4.1' noenhanced
set xlabel 'bytes'
set ylabel 'GB/s (bytes / median time)'
plot 'transfers_gbps_vs_size.dat' index 0 using 1:2 with linespoints title 'Kokkos::deep_copy H2D pageable' noenhanced, \
     'transfers_gbps_vs_size.dat' index 1 using 1:2 with linespoints title 'Kokkos::deep_copy D2H pageable' noenhanced
unset output
