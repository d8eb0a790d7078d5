/* The floor of one range sample on this machine (`make perf` prints it next to nearby's figure):
 * a writer sends a 60-byte message (the size of a SESSION_INFO_NTF with one measurement) every
 * 50 ms over TCP loopback; the reader blocks in read(2), formats one JSON line with snprintf and
 * writes it with write(2): the least any program does per sample of `nearby uwb range`.
 * Prints the reader's CPU microseconds per message (getrusage: user + system).
 *
 * `floor N wake` prints what a wake-up alone costs: the process sleeps 50 ms (nanosleep) N
 * times and does nothing else; CPU microseconds per wake-up. No program can spend less per
 * sample than this at 20 Hz while printing each sample as it comes. */
#include <netinet/in.h>
#include <signal.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec + r.ru_stime.tv_usec;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 400;
    if (argc > 2 && strcmp(argv[2], "wake") == 0) {
        struct timespec pause = {0, 50000000};
        for (int i = 0; i < 20; i++) nanosleep(&pause, NULL); /* the first 20 warm up */
        double start = cpu_us();
        for (int i = 0; i < count; i++) nanosleep(&pause, NULL);
        fprintf(stderr, "%.1f\n", (cpu_us() - start) / count);
        return 0;
    }
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1) ||
        getsockname(listener, (struct sockaddr *)&address, &length)) {
        perror("floor: listen");
        return 1;
    }
    pid_t writer = fork();
    if (writer == 0) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        if (connect(s, (struct sockaddr *)&address, sizeof address)) _exit(1);
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        char message[60];
        memset(message, 7, sizeof message);
        for (int i = 0; i < count + 20; i++) {
            if (write(s, message, sizeof message) != sizeof message) break;
            usleep(50000);
        }
        _exit(0);
    }
    int s = accept(listener, NULL, NULL);
    char buffer[4096], line[256];
    int received = 0;
    double start = 0;
    while (received < count + 20) {
        ssize_t n = read(s, buffer, sizeof buffer);
        if (n <= 0) break;
        received += (int)(n / 60);
        if (received == 20) start = cpu_us(); /* the first 20 warm up */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int m = snprintf(line, sizeof line, "{\"t_s\":%.3f,\"peer\":\"0x0002\",\"distance_m\":%.2f,\"status\":\"OK\"}\n",
                         now.tv_sec + now.tv_nsec / 1e9, 1.5);
        if (write(1, line, m) != m) break;
    }
    double used = cpu_us() - start;
    kill(writer, SIGTERM);
    waitpid(writer, NULL, 0);
    if (received < count + 20) {
        fprintf(stderr, "floor: only %d messages\n", received);
        return 1;
    }
    fprintf(stderr, "%.1f\n", used / count);
    return 0;
}
